//! How a tool call fails: [`ToolError`], told apart by whose mistake it is.

use serde_json::Value;

/// A tool's outcome: structured content, or why not.
pub type Outcome = std::result::Result<Value, ToolError>;

/// Why a tool call failed. Either way the agent gets a message that says what to
/// do next, as a tool error (`isError`), not a protocol error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolError {
    /// The call's arguments: a missing or malformed one, an unknown id, facet or
    /// value, a cursor of another call.
    Arguments(String),
    /// The bundle the server reads: a file missing or damaged (build it again).
    Bundle(String),
}

impl ToolError {
    /// The message for the agent.
    pub fn message(&self) -> &str {
        match self {
            ToolError::Arguments(m) | ToolError::Bundle(m) => m,
        }
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ToolError {}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        ToolError::Arguments(message)
    }
}

impl From<ToolError> for String {
    fn from(e: ToolError) -> String {
        e.to_string()
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        ToolError::Arguments(message.to_string())
    }
}
