//! The pages about the library: how to read a record, and the API and MCP server.

use maud::{html, Markup};

use super::*;

pub(super) fn about_page(site: &Site) -> Page {
    let root = "../";
    let body = html! {
        article.about {
            h1 { "사례를 읽는 법" }
            p { "사례마다 한 문장 제목, 요약, 그리고 장애를 이해하는 데 필요한 정보를 같은 순서로 담았다. 모든 사례는 공개된 원래 보고서를 출처로 밝힌다." }
            h2 { "머리" }
            p { "사례 번호, 조직, 영향이 시작된 날짜(UTC)와 태그가 맨 위에 있다. 그 아래 표는 심각도, 영향 범위, 영향 사용자, 지역, 감지까지 걸린 시간, 복구까지 걸린 시간이다. 출처가 밝히지 않은 값은 – 로 둔다." }
            h2 { "본문" }
            p { "요약은 제목 바로 아래에 있고, 나머지 절이 이 순서로 이어진다. 출처가 말하지 않는 절은 \"" (NOT_IN_SOURCES) "\"으로 둔다." }
            dl {
                @for s in &incident_core::sections::SECTIONS {
                    dt { (s.name) } dd { (s.ko) }
                }
                dt { "내 시스템에서 확인할 것" } dd { "같은 빈틈이 있는지 읽기만 해서 확인할 수 있는 점검 항목." }
            }
            h2 { "분류" }
            p { "원인, 구성 요소, 증상, 기여 요인, 조직의 다섯 가지로 나눈다. 분류 값을 누르면 그 값의 설명과 사례 목록이 나온다. 검색 화면에서는 같은 분류 안의 값은 '또는', 다른 분류끼리는 '그리고'로 묶는다." }
            h2 { "검색" }
            p { "조사와 어미는 떼고 찾는다. '재시도를'과 '재시도'는 같은 사례를 찾는다. 검색어에 분류 이름이 들어 있으면 추천 필터로 보여 준다. 한 번 연 뒤에는 인터넷 없이도 검색할 수 있다." }
        }
    };
    Page {
        path: "about/index.html".into(),
        html: layout("사례를 읽는 법", root, site, Some("about/"), None, body),
    }
}

/// One configuration example: the client, where it goes, and the block.
pub(super) fn config_example(client: &str, place: &str, block: &str) -> Markup {
    html! {
        h3 { (client) }
        p { (place) }
        pre tabindex="0" { code { (block) } }
    }
}

/// "API 와 MCP": the static API's files with `curl` examples, the JSON of an
/// incident, and how to register the MCP server in common clients.
pub(super) fn api_page(site: &Site) -> Page {
    let root = "../";
    let command = "/path/to/incident-library";
    let bundle = "/path/to/dist";
    let endpoints: [(&str, &str); 7] = [
        ("api/v1/index.json", "라이브러리에 무엇이 있고 다른 파일이 어디 있는지"),
        (
            "api/v1/incidents.json",
            "사례 목록, 최신순. 다음 쪽은 incidents-2.json, incidents-3.json …",
        ),
        (
            "api/v1/incidents/{id}.json",
            "사례 하나 전체 (예: IL-0001.json). 합쳐진 번호는 옮겨 간 곳을 알려 준다",
        ),
        ("api/v1/topics.json", "분류 값 전체와 값마다 사례 수"),
        (
            "api/v1/topics/{facet}/{slug}.json",
            "분류 값 하나의 설명, 동의어, 사례, 관련 분류",
        ),
        ("api/v1/vocab.json", "분류마다 값, 한국어와 영어 라벨, 동의어"),
        (
            "api/v1/openapi.json",
            "이 API 의 OpenAPI 3.1 문서. 스키마는 api/v1/schemas/ 에 있다",
        ),
    ];
    let body = html! {
        article.about {
            h1 { "API 와 MCP" }
            p { "이 라이브러리는 서버 없이 정적 파일로 API 를 낸다. 키도 가입도 필요 없다. 모든 파일은 JSON 이고, 어느 출처에서든 읽을 수 있다(CORS 허용). 응답은 " code { "schema_version" } ", " code { "generated_at" } ", " code { "data" } " 로 싸여 있다." }
            h2 { "파일" }
            p { "주소는 이 사이트의 루트를 기준으로 한다. 아래 예에서 " code { "BASE" } " 는 이 사이트의 주소다." }
            table.endpoints {
                thead { tr { th { "경로" } th { "내용" } } }
                tbody {
                    @for (path, what) in endpoints {
                        tr { td { code { (path) } } td { (what) } }
                    }
                }
            }
            h2 { "curl 로 읽기" }
            pre tabindex="0" { code { "BASE=https://이-사이트의-주소\n\n# 사례 하나\ncurl -s \"$BASE/api/v1/incidents/IL-0001.json\"\n\n# 최신 사례 목록의 첫 쪽\ncurl -s \"$BASE/api/v1/incidents.json\"\n\n# 분류 값 하나와 그 사례 (구성 요소: CDN 엣지)\ncurl -s \"$BASE/api/v1/topics/component/cdn-edge.json\"" } }
            h2 { "읽고 있는 사례의 JSON" }
            p { "사례 페이지 " code { "incidents/IL-0001/" } " 의 JSON 은 " code { "api/v1/incidents/IL-0001.json" } " 이다. 사례 페이지 맨 아래에 그 사례의 JSON 링크가 있다. 섹션은 Markdown 과 일반 텍스트로 둘 다 들어 있고, 출처 URL, 분류, 점검 항목, 관련 사례 번호가 함께 온다." }
            h2 { "MCP 서버" }
            p { "같은 검색을 AI 에이전트가 MCP 로 쓸 수 있다. " code { "incident-library mcp --bundle <빌드한 폴더>" } " 가 stdio 로 도는 읽기 전용 서버다. 도구는 다섯 가지다." }
            dl {
                @for tool in crate::mcp_tools::McpTool::ALL {
                    dt { code { (tool.name()) } } dd { (tool.ko()) }
                }
            }
            p {
                "모든 사례(" code { "incident://IL-0001" } "), 주제(" code { "topic://cause/config-change" } ")와 분류 체계("
                code { "taxonomy://vocab" } ")는 마크다운 리소스로도 읽는다. 프롬프트는 세 가지다: "
                code { "check_my_system" } " (이 사례로 내 시스템 점검하기), " code { "find_similar" } " (비슷한 사례 찾기), "
                code { "review_postmortem" } " (포스트모템 검토). 사례 id 와 분류 값은 자동 완성된다. "
                code { "--site-url https://…/" } " 를 주면 결과의 모든 링크가 절대 주소가 된다."
            }
            p {
                "웹을 읽는 에이전트를 위해 " a href={ (root) "llms.txt" } { "llms.txt" } " 가 있고, 사례마다 페이지 옆에 마크다운 판("
                code { "incidents/IL-0001/index.md" } ")이 있다."
            }
            p { "아래 " code { (command) } " 는 incident-library 실행 파일의 경로로, " code { (bundle) } " 는 " code { "incident-library build" } " 가 만든 폴더로 바꾼다." }
            (client_configs(command, bundle))
        }
    };
    Page {
        path: "api/index.html".into(),
        html: layout(
            "API 와 MCP",
            root,
            site,
            Some("api/"),
            Some("Incident Library 의 정적 API 와 MCP 서버를 쓰는 법"),
            body,
        ),
    }
}

/// How to register the MCP server in common clients, `command` and `bundle` named
/// as given.
fn client_configs(command: &str, bundle: &str) -> Markup {
    let claude_code = format!("claude mcp add incident-library -- {command} mcp --bundle {bundle}");
    let codex = format!(
        "[mcp_servers.incident-library]\ncommand = \"{command}\"\nargs = [\"mcp\", \"--bundle\", \"{bundle}\"]"
    );
    let desktop = format!(
        "{{\n  \"mcpServers\": {{\n    \"incident-library\": {{\n      \"command\": \"{command}\",\n      \"args\": [\"mcp\", \"--bundle\", \"{bundle}\"]\n    }}\n  }}\n}}"
    );
    let vscode = format!(
        "{{\n  \"servers\": {{\n    \"incident-library\": {{\n      \"type\": \"stdio\",\n      \"command\": \"{command}\",\n      \"args\": [\"mcp\", \"--bundle\", \"{bundle}\"]\n    }}\n  }}\n}}"
    );
    html! {
        (config_example("Claude Code", "터미널에서 한 번 실행한다.", &claude_code))
        (config_example("Codex", "~/.codex/config.toml 에 더한다.", &codex))
        (config_example("Claude Desktop", "claude_desktop_config.json 에 더한다.", &desktop))
        (config_example("VS Code", "작업 폴더의 .vscode/mcp.json 에 둔다.", &vscode))
    }
}
