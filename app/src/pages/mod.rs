//! One module per page of the site.

pub mod about;
pub mod budget;
pub mod diagnose;
pub mod home;
pub mod not_found;
pub mod runbooks;
pub mod write;
