//! Adapter: the impact response of a turning body at one contact point is
//! computed by the solver
//! ([`parapet_solver::impact::respond_turning_point`]); this module keeps the
//! names its caller imports from here.

pub(crate) use parapet_solver::impact::{
    respond_turning_point as respond_turning, ImpactMass as TurningMass,
};
