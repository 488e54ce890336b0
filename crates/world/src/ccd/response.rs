//! Adapter: the impact response of a body alone against a static triangle
//! is computed by the solver ([`parapet_solver::impact::respond_body_triangle`]).
//! This module keeps the world's call, which names the body in its errors,
//! for the callers that still import it from here.

use parapet_geometry::Material;
use parapet_math::{Vec3, Vec3d};
pub(crate) use parapet_solver::impact::ImpactMass as ResponseBody;
use parapet_solver::impact::{respond_body_triangle, TriangleResponse};

use super::error::CcdError;

/// [`respond_body_triangle`] with its error mapped onto the world's, naming
/// body `index`.
pub(crate) fn respond(
    index: usize,
    body: &ResponseBody,
    velocity: Vec3,
    spin: Vec3,
    arm: Vec3d,
    normal: Vec3d,
    material: &Material,
) -> Result<Option<TriangleResponse>, CcdError> {
    respond_body_triangle(body, velocity, spin, arm, normal, material)
        .map_err(|e| CcdError::from_impact(index, e))
}
