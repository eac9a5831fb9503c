//! The result order.

use serde::{Deserialize, Serialize};

/// Result order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// By score (the default with a query).
    Relevance,
    /// Newest first (the default without a query).
    Recent,
}

impl std::str::FromStr for Sort {
    type Err = String;
    fn from_str(s: &str) -> Result<Sort, String> {
        match s {
            "relevance" => Ok(Sort::Relevance),
            "recent" => Ok(Sort::Recent),
            _ => Err(format!("unknown sort \"{s}\"; use relevance or recent")),
        }
    }
}
