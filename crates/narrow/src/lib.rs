//! parapet-narrow: discrete contact tests, ray casts and continuous sweeps.
//!
//! Every function here is pure: shapes and motions in, contacts or times of
//! impact out. A user who only wants sweeps depends on this crate alone and
//! gets no world.
//!
//! Architecture invariant: narrow depends on math and geometry only; it never
//! sees a body, a world or a policy decision (grouping, ordering, rollback).

pub mod contact;
pub mod moving;
pub mod query;
pub mod ray;
pub mod solid;
pub mod sweep;
mod triangle;
