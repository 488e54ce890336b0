//! The run of the `toi` target: the public time-of-impact query
//! (`parapet_narrow::query::time_of_impact`, the facade's
//! `parapet::collide::time_of_impact`) on hostile and ordinary input.
//!
//! Asserted, by panicking with a description:
//! - no panic inside parapet;
//! - an answer is well formed: a time in `[0, max_time]`, a finite point,
//!   a unit normal; an error renders a message;
//! - the same input gives the same bits twice (no hidden state);
//! - on ordinary input (finite, unit rotations, convex shapes, speeds and
//!   spins within the domain), the answer is never late against
//!   the independent signed distance of [`crate::toi_oracle`] marched with
//!   its Lipschitz bound, and a hit is within the tolerance of the target.

use arbitrary::{Result, Unstructured};
use parapet_geometry::Shape;
use parapet_math::{Quat, Quatd};
use parapet_narrow::query::{
    time_of_impact as toi, Motion, TimeOfImpact, ToiError, ToiOptions, TOI_DISTANCE_TOLERANCE,
};

use super::build::{any_shape, solid_shape};
use super::values::{any_f32, any_quat, any_vec, ordinary_vec, sane_length};
use crate::toi_oracle::{lipschitz, march, signed_distance, Piece, TrueMotion};

/// The oracle's slack (m): `f32` inputs and the roundoff of both sides.
const SLACK: f64 = 1e-6;

/// A motion: ordinary (positions within 3 m, speeds within 30 m/s, spins
/// within 20 rad/s) or built from any floats.
fn any_motion(u: &mut Unstructured<'_>, ordinary: bool) -> Result<Motion> {
    let m = if ordinary {
        Motion::new(
            ordinary_vec(u, 3.0)?,
            Quat::from_scaled_axis(ordinary_vec(u, 3.0)?),
            ordinary_vec(u, 30.0)?,
            ordinary_vec(u, 20.0)?,
        )
    } else {
        Motion::new(
            any_vec(u, 3.0)?,
            any_quat(u)?,
            any_vec(u, 30.0)?,
            any_vec(u, 20.0)?,
        )
    };
    Ok(if u.ratio(1u8, 4u8)? {
        m.with_local_center(if ordinary {
            ordinary_vec(u, 0.3)?
        } else {
            any_vec(u, 0.3)?
        })
    } else {
        m
    })
}

fn check_answer(a: &Result2, options: &ToiOptions) {
    match a {
        Ok(Some(t)) => assert!(
            t.time >= 0.0
                && t.time <= options.max_time
                && t.point.iter().all(|x| x.is_finite())
                && (t.normal.norm() - 1.0).abs() <= 1e-5,
            "a malformed time of impact {t:?} for {options:?}"
        ),
        Ok(None) => {}
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

type Result2 = std::result::Result<Option<TimeOfImpact>, ToiError>;

/// The oracle's true motion of a convex shape under `m`.
fn true_motion(shape: &Shape, m: &Motion) -> Option<TrueMotion> {
    let piece = Piece::of_shape(shape)?;
    Some(TrueMotion::new(
        &piece,
        m.position.cast::<f64>(),
        Quatd::new_normalize(m.rotation.into_inner().cast::<f64>()),
        m.local_center.cast::<f64>(),
        m.linear_velocity.cast::<f64>(),
        m.angular_velocity.cast::<f64>(),
    ))
}

/// The ordinary-input oracle: never late, close at a hit.
fn agree(a: (&Shape, &Motion), b: (&Shape, &Motion), options: &ToiOptions, answer: &Result2) {
    let (Some(ta), Some(tb)) = (true_motion(a.0, a.1), true_motion(b.0, b.1)) else {
        return;
    };
    let answer = answer
        .as_ref()
        .unwrap_or_else(|e| panic!("refused ordinary input: {e}"));
    let target = f64::from(options.target_distance);
    let stop = answer.map_or(f64::from(options.max_time), |t| f64::from(t.time));
    let d = |t: f64| signed_distance(&ta.at(t), &tb.at(t));
    if let Some(t) = answer {
        let at = d(f64::from(t.time));
        let tol = f64::from(TOI_DISTANCE_TOLERANCE);
        assert!(
            at <= target + tol + SLACK,
            "a hit {at} m apart, target {target}: {t:?}"
        );
    }
    let m = march(
        d,
        lipschitz(&ta, &tb),
        target,
        SLACK,
        0.0,
        stop,
        stop * 1e-5,
    );
    if let Some(t) = m.first_below {
        assert!(
            t >= stop,
            "late: below the target at {t}, answer {answer:?}"
        );
    }
}

/// One query: shapes, motions and options from the bytes (see the module
/// docs for what is asserted).
pub fn time_of_impact(u: &mut Unstructured<'_>) -> Result<()> {
    let ordinary = u.ratio(3u8, 4u8)?;
    let (a, b) = if ordinary {
        (solid_shape(u)?, solid_shape(u)?)
    } else {
        let (Ok(a), Ok(b)) = (any_shape(u)?, any_shape(u)?) else {
            return Ok(());
        };
        (a, b)
    };
    let (ma, mb) = (any_motion(u, ordinary)?, any_motion(u, ordinary)?);
    let options = if ordinary {
        ToiOptions::new(sane_length(u, 0.01, 1.0)?)
            .with_target_distance(sane_length(u, 0.001, 0.05)? - 0.001)
    } else {
        ToiOptions::new(any_f32(u)?).with_target_distance(any_f32(u)?)
    };
    let answer = toi(&a, &ma, &b, &mb, &options);
    check_answer(&answer, &options);
    let again = toi(&a, &ma, &b, &mb, &options);
    assert_eq!(
        format!("{answer:?}"),
        format!("{again:?}"),
        "not deterministic"
    );
    if ordinary {
        agree((&a, &ma), (&b, &mb), &options, &answer);
    }
    Ok(())
}
