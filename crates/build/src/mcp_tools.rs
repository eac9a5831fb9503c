//! The MCP server's tools, named once. The server (`incident-library mcp`) defines
//! each tool's schemas and runs it by this enum; the site's "API 와 MCP" page lists
//! them from it; nothing else names them.

/// A tool of the MCP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpTool {
    /// Ranked incidents for words.
    SearchIncidents,
    /// Incidents by facet filters alone.
    ListIncidents,
    /// One record in full.
    GetIncident,
    /// One taxonomy value and its incidents.
    GetTopic,
    /// The taxonomy, a page at a time.
    Vocab,
}

impl McpTool {
    /// Every tool, in the order the server lists them.
    pub const ALL: [McpTool; 5] = [
        McpTool::SearchIncidents,
        McpTool::ListIncidents,
        McpTool::GetIncident,
        McpTool::GetTopic,
        McpTool::Vocab,
    ];

    /// The name a client calls it by.
    pub fn name(self) -> &'static str {
        match self {
            McpTool::SearchIncidents => "search_incidents",
            McpTool::ListIncidents => "list_incidents",
            McpTool::GetIncident => "get_incident",
            McpTool::GetTopic => "get_topic",
            McpTool::Vocab => "vocab",
        }
    }

    /// What it does, in Korean, for the site's page on the API and MCP.
    pub fn ko(self) -> &'static str {
        match self {
            McpTool::SearchIncidents => "낱말로 찾는다. 조사, 띄어쓰기, 오타, 분류 이름을 알아듣는다.",
            McpTool::ListIncidents => "분류 필터만으로 최신순 목록을 받는다.",
            McpTool::GetIncident => "사례 하나를 받는다. 점검 항목과 출처, 관련 사례가 함께 온다.",
            McpTool::GetTopic => "분류 값 하나의 설명과 그 값의 사례를 받는다.",
            McpTool::Vocab => "분류 값의 목록을 라벨과 동의어와 함께 받는다.",
        }
    }

    /// The tool called `name`.
    pub fn parse(name: &str) -> Option<McpTool> {
        McpTool::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Every tool's name, for messages: `a, b, c, d and e`.
    pub fn names() -> String {
        let names: Vec<&str> = McpTool::ALL.iter().map(|t| t.name()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_parses_back_from_its_name() {
        for t in McpTool::ALL {
            assert_eq!(McpTool::parse(t.name()), Some(t));
        }
        assert_eq!(McpTool::parse("delete_everything"), None);
        assert!(McpTool::names().ends_with(" and vocab"));
    }
}
