//! The Runbooks section: the searchable list and one runbook's page.

mod list;
mod page;

pub use list::RunbookList;
pub use page::{Article, RunbookPage};
