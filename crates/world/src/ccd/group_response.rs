//! Adapter: the impact response of two group members is computed by the
//! solver ([`parapet_solver::impact::respond_pair`]). This module keeps the
//! world's call, which names the lower member in its errors, for the
//! callers that still import it from here.

use parapet_geometry::Material;
use parapet_math::Vec3d;
use parapet_solver::impact::PairResponse;
pub(crate) use parapet_solver::impact::PairSide;

use super::error::CcdError;

/// [`parapet_solver::impact::respond_pair`] with its error mapped onto the
/// world's, naming body `index` (A).
pub(crate) fn respond_pair(
    index: usize,
    a: &PairSide,
    b: &PairSide,
    normal: Vec3d,
    material: &Material,
) -> Result<Option<PairResponse>, CcdError> {
    parapet_solver::impact::respond_pair(a, b, normal, material)
        .map_err(|e| CcdError::from_impact(index, e))
}
