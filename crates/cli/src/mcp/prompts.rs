//! Prompts that turn the library into tasks a person picks from the client's menu:
//! check your own system against an incident, find incidents like your outage, and
//! review a draft postmortem. Each is in Korean, or in English with `lang: "en"`.
//! The server does the library's part (it reads the record, runs the search) and
//! hands the agent the result with what to do next; the agent's own tools do the
//! rest, read-only.

use rmcp::model::{GetPromptResult, Prompt, PromptArgument, PromptMessage, Role};
use serde_json::{Map, Value};

use incident_core::search::{self, Request};

use super::Library;

/// Incidents a prompt's search step gives.
pub const SIMILAR: usize = 5;

/// The prompts, by name: (name, Korean title, English title, its main argument,
/// the argument's description).
pub const PROMPTS: [(&str, &str, &str, &str, &str); 3] = [
    (
        "check_my_system",
        "이 사례로 내 시스템 점검하기",
        "Check my system against this incident",
        "id",
        "the incident's id, e.g. IL-0001",
    ),
    (
        "find_similar",
        "비슷한 사례 찾기",
        "Find similar incidents",
        "description",
        "what happened in your own outage, in your words (Korean or English)",
    ),
    (
        "review_postmortem",
        "포스트모템 검토",
        "Review a postmortem draft",
        "draft",
        "the draft postmortem's text",
    ),
];

/// The prompt definitions for `prompts/list`.
pub fn prompts() -> Vec<Prompt> {
    PROMPTS
        .iter()
        .map(|&(name, ko, en, arg, about)| {
            let args = vec![
                PromptArgument::new(arg).with_description(about).with_required(true),
                PromptArgument::new("lang")
                    .with_description("ko (default) or en: the language of the task")
                    .with_required(false),
            ];
            Prompt::new(name, Some(format!("{ko} ({en})")), Some(args)).with_title(ko)
        })
        .collect()
}

/// The text of `key` in the prompt's language.
fn say(en: bool, ko: &str, english: &str) -> String {
    if en { english } else { ko }.to_string()
}

impl Library {
    /// `prompts/get`: the messages of prompt `name` with `args`, or why not.
    pub(super) fn prompt(&self, name: &str, args: &Map<String, Value>) -> Result<GetPromptResult, String> {
        let (_, ko, english, arg, _) = PROMPTS.iter().find(|p| p.0 == name).copied().ok_or_else(|| {
            format!(
                "no prompt {}; the prompts are check_my_system, find_similar and review_postmortem",
                super::shown(name)
            )
        })?;
        let en = match args.get("lang").and_then(Value::as_str).map(str::trim) {
            None | Some("" | "ko") => false,
            Some("en") => true,
            Some(other) => return Err(format!("lang {} is not known; use ko or en", super::shown(other))),
        };
        let given = args
            .get(arg)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| {
                format!(
                    "{arg} is required: {}",
                    PROMPTS.iter().find(|p| p.0 == name).map_or("", |p| p.4)
                )
            })?;
        let text = match name {
            "check_my_system" => self.check_my_system(given, en)?,
            "find_similar" => self.find_similar(given, en)?,
            _ => self.review_postmortem(given, en)?,
        };
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).with_description(if en {
                english
            } else {
                ko
            }),
        )
    }

    fn check_my_system(&self, id: &str, en: bool) -> Result<String, String> {
        let id = id.to_uppercase();
        let record = self.incident_markdown(&id)?;
        let mut out = say(
            en,
            "아래 공개 장애 사례와 같은 빈틈이 내 시스템에도 있는지 점검해 줘. 레코드 끝의 \"내 시스템에서 확인할 것\" 목록을 읽기 전용 점검표로 바꾸고, 네가 가진 도구로 하나씩 확인해.\n\n규칙:\n- 읽기만 한다. 설정을 바꾸거나, 재시작하거나, 배포하거나, 파일을 쓰지 않는다. 바꿔야 할 것이 보이면 제안만 한다.\n- 점검마다 결과를 \"성립함\", \"성립하지 않음\", \"판단할 수 없음\" 가운데 하나로 적고, 근거(실행한 명령과 본 것)를 붙인다.\n- 마지막에 위험이 큰 순서로 요약하고, 사례의 교훈 가운데 내 시스템에 맞는 것을 짚는다.\n\n",
            "Check whether my system has the same weakness as the public incident below. Turn the record's list \"내 시스템에서 확인할 것\" (checks for your own system) into a read-only checklist and check each item with your own tools.\n\nRules:\n- Read only. Change no setting, restart nothing, deploy nothing, write no file. Where something should change, only propose it.\n- Report each check as holds, does not hold, or could not tell, with the evidence (the commands you ran and what you saw).\n- End with a summary, most serious first, and the lessons of the incident that apply to my system.\n\n",
        );
        out.push_str("---\n\n");
        out.push_str(&record);
        Ok(out)
    }

    /// The incidents most like `text` (at most [`SIMILAR`]), as the search ranks them.
    pub fn similar(&self, text: &str) -> Result<Vec<incident_core::search::Hit>, String> {
        let request = Request {
            query: text.to_string(),
            per_page: SIMILAR,
            ..Default::default()
        };
        search::search(&self.index, &request)
            .map(|r| r.hits)
            .map_err(|e| e.to_string())
    }

    /// Each hit as a short block: id, title, org, date, link, summary and lessons.
    fn hit_blocks(&self, hits: &[incident_core::search::Hit]) -> String {
        let mut out = String::new();
        for (rank, h) in hits.iter().enumerate() {
            let lessons = self
                .api_data(&format!("incidents/{}.json", h.id))
                .ok()
                .and_then(|r| r["sections"]["교훈"]["text"].as_str().map(str::to_string))
                .unwrap_or_default();
            out.push_str(&format!(
                "{}. {} — {} ({}, {})\n   {}\n   요약: {}\n   교훈: {}\n",
                rank + 1,
                h.id,
                h.title,
                self.label("org", &h.org),
                h.date_label,
                self.web(&format!("incidents/{}/", h.id)),
                h.summary,
                lessons
            ));
        }
        out
    }

    fn find_similar(&self, description: &str, en: bool) -> Result<String, String> {
        let hits = self.similar(description)?;
        let mut out = say(
            en,
            "내 장애와 비슷한 공개 사례를 찾아 비교해 줘.\n\n내 장애:\n",
            "Find public incidents like my outage and compare them with it.\n\nMy outage:\n",
        );
        out.push_str(&format!("{description}\n\n"));
        if hits.is_empty() {
            out.push_str(&say(
                en,
                "도서관 검색은 맞는 사례를 찾지 못했다. search_incidents 도구로 다른 낱말(구성 요소, 증상, 원인)을 넣어 다시 찾아 줘.\n",
                "The library's search found no matching incident. Search again with the search_incidents tool, with other words (the component, the symptom, the cause).\n",
            ));
            return Ok(out);
        }
        out.push_str(&say(
            en,
            "도서관 검색이 가장 가깝다고 본 사례:\n\n",
            "The library's closest incidents, best first:\n\n",
        ));
        out.push_str(&self.hit_blocks(&hits));
        out.push_str(&say(
            en,
            "\n할 일:\n- 사례마다 내 장애와 닮은 점과 다른 점을 짧게 적는다. 닮지 않은 사례는 그렇다고 말하고 넘어간다.\n- 가장 가까운 사례의 교훈이 내 경우에 무엇을 말하는지 정리한다.\n- 더 자세한 내용은 get_incident 도구나 incident:// 리소스로 읽는다. 사례에 없는 사실을 지어내지 않는다.\n",
            "\nWhat to do:\n- For each incident, say briefly how it resembles my outage and how it differs; say so and move on when it does not.\n- Say what the lessons of the closest incidents mean for my case.\n- Read more with the get_incident tool or the incident:// resources. Do not invent facts the records do not give.\n",
        ));
        Ok(out)
    }

    fn review_postmortem(&self, draft: &str, en: bool) -> Result<String, String> {
        let hits = self.similar(draft)?;
        let mut out = say(
            en,
            "아래 포스트모템 초안을 검토해 줘.\n\n1. 분류: 이 도서관의 분류 체계(원인, 구성 요소, 증상, 기여 요인)로 초안을 분류한다. 값은 vocab 도구나 taxonomy://vocab 리소스의 slug 로 적는다.\n2. 비슷한 사례: 아래 후보 가운데 정말 비슷한 것을 고르고, 그 교훈이 초안에 빠진 것을 짚는다.\n3. 빠진 절: 이 도서관의 레코드는 아래 절로 이루어진다. 초안에 없거나 얇은 절을 찾아, 무엇을 더 써야 하는지 묻는다.\n4. 초안에 없는 사실은 지어내지 않는다. 모르는 것은 질문으로 남긴다.\n\n",
            "Review the draft postmortem below.\n\n1. Classification: classify the draft with this library's taxonomy (cause, component, symptom, contributing factor). Give values as slugs from the vocab tool or the taxonomy://vocab resource.\n2. Similar incidents: pick the candidates below that really are similar, and name what their lessons add to the draft.\n3. Missing sections: this library's records have the sections below. Find those the draft lacks or covers thinly, and ask what should be added.\n4. Do not invent facts the draft does not give; leave what is unknown as questions.\n\n",
        );
        out.push_str(&say(en, "레코드의 절:\n", "The sections of a record:\n"));
        let lower = draft.to_lowercase();
        let mut absent = Vec::new();
        for section in incident_core::sections::SECTIONS {
            let (name, role) = (section.name, section.about);
            out.push_str(&format!("- {name}: {role}\n"));
            let english = role.split(':').next().unwrap_or("");
            if !draft.contains(name) && !lower.contains(english) {
                absent.push(name);
            }
        }
        if !absent.is_empty() {
            out.push_str(&say(
                en,
                &format!("\n초안에서 이름으로 찾지 못한 절: {}\n", absent.join(", ")),
                &format!("\nSections the draft does not name: {}\n", absent.join(", ")),
            ));
        }
        out.push_str(&say(
            en,
            "\n비슷한 사례 후보:\n\n",
            "\nCandidate similar incidents:\n\n",
        ));
        out.push_str(&self.hit_blocks(&hits));
        out.push_str("\n---\n\n");
        out.push_str(draft);
        out.push('\n');
        Ok(out)
    }
}
