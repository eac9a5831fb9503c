//! The sections of a record, defined once: their names (the `##` headings of a
//! record's body), their order, their anchors on an incident page and which ones
//! every record has. The corpus check, the incident pages, the API, the passages
//! files, the excerpts, the Markdown versions and the MCP server all read this
//! table; nothing else lists the sections.
//!
//! The order is the one reading order everywhere: a record's body is written in it,
//! and every page, file and answer gives the sections in it. It follows an incident
//! as it happened: what it was, what was seen, what set it off, why, how it was
//! noticed, how it was stopped, what was decided, what it teaches.

/// One section of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionDef {
    /// The `##` heading in a record's body (`원인`).
    pub name: &'static str,
    /// Its anchor on an incident page (`s-cause`: `incidents/<id>/#s-cause`).
    pub anchor: &'static str,
    /// True when every record has it.
    pub required: bool,
    /// What it holds, in Korean, as the page on reading a record says.
    pub ko: &'static str,
    /// What it holds, in English, for readers and agents who do not read Korean.
    pub about: &'static str,
    /// The facet whose values an incident page lists under it, if any.
    pub facet: Option<&'static str>,
    /// True when it belongs to a record's short form: what happened, why, and what
    /// it teaches (what the MCP server's `get_incident` gives unless asked).
    pub brief: bool,
}

/// The sections, in reading order.
pub const SECTIONS: [SectionDef; 8] = [
    SectionDef {
        name: "요약",
        anchor: "s-summary",
        required: true,
        ko: "무슨 일이 누구에게 얼마 동안 일어났는지.",
        about: "summary: what happened, to whom, for how long",
        facet: None,
        brief: true,
    },
    SectionDef {
        name: "증상",
        anchor: "s-symptoms",
        required: false,
        ko: "사용자와 운영자가 무엇을 보았는지.",
        about: "symptoms: what users and monitors saw",
        facet: Some("symptom"),
        brief: false,
    },
    SectionDef {
        name: "촉발",
        anchor: "s-trigger",
        required: false,
        ko: "무엇이 방아쇠였는지.",
        about: "trigger: the change or event that set it off",
        facet: None,
        brief: false,
    },
    SectionDef {
        name: "원인",
        anchor: "s-cause",
        required: false,
        ko: "왜 일어났는지, 어떤 빈틈까지 거슬러 가는지.",
        about: "cause: why it happened, down to the weakness",
        facet: Some("cause"),
        brief: true,
    },
    SectionDef {
        name: "감지",
        anchor: "s-detection",
        required: false,
        ko: "어떻게, 언제 알았는지.",
        about: "detection: how and when it was noticed",
        facet: None,
        brief: false,
    },
    SectionDef {
        name: "조치",
        anchor: "s-response",
        required: false,
        ko: "어떻게 멈추고 되살렸는지.",
        about: "response: how it was stopped and recovered",
        facet: None,
        brief: false,
    },
    SectionDef {
        name: "후속 조치",
        anchor: "s-followup",
        required: false,
        ko: "다시 일어나지 않게 무엇을 하기로 했는지.",
        about: "follow-up: what was decided so it does not recur",
        facet: None,
        brief: false,
    },
    SectionDef {
        name: "교훈",
        anchor: "s-lessons",
        required: true,
        ko: "다른 팀이 가져갈 만한 점.",
        about: "lessons: what others can learn",
        facet: None,
        brief: true,
    },
];

/// The names of [`SECTIONS`], in reading order.
pub const NAMES: [&str; SECTIONS.len()] = {
    let mut names = [""; SECTIONS.len()];
    let mut i = 0;
    while i < SECTIONS.len() {
        names[i] = SECTIONS[i].name;
        i += 1;
    }
    names
};

/// The anchors of [`SECTIONS`], in reading order. (The browser's module reads
/// names and anchors only: as constants made at compile time, they leave the rest
/// of the table, its descriptions, out of the module.)
pub const ANCHORS: [&str; SECTIONS.len()] = {
    let mut anchors = [""; SECTIONS.len()];
    let mut i = 0;
    while i < SECTIONS.len() {
        anchors[i] = SECTIONS[i].anchor;
        i += 1;
    }
    anchors
};

/// The section called `name`.
pub fn get(name: &str) -> Option<&'static SectionDef> {
    SECTIONS.iter().find(|s| s.name == name)
}

/// Where section `name` comes in reading order.
pub fn position(name: &str) -> Option<usize> {
    NAMES.iter().position(|n| *n == name)
}

/// The anchor of section `name` on an incident page.
pub fn anchor(name: &str) -> Option<&'static str> {
    position(name).map(|i| ANCHORS[i])
}

/// The names of the sections of a record's short form ([`SectionDef::brief`]), in
/// reading order.
pub fn brief() -> impl Iterator<Item = &'static str> {
    SECTIONS.iter().filter(|s| s.brief).map(|s| s.name)
}

/// The names of the sections every record has, in reading order.
pub fn required() -> impl Iterator<Item = &'static str> {
    SECTIONS.iter().filter(|s| s.required).map(|s| s.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_anchors_are_unique_and_the_first_and_last_are_required() {
        for (i, a) in SECTIONS.iter().enumerate() {
            for b in &SECTIONS[i + 1..] {
                assert!(a.name != b.name && a.anchor != b.anchor, "{a:?} {b:?}");
            }
            assert_eq!(position(a.name), Some(i));
            assert_eq!(anchor(a.name), Some(a.anchor));
        }
        assert_eq!(NAMES[0], "요약");
        assert_eq!(required().collect::<Vec<_>>(), [NAMES[0], NAMES[NAMES.len() - 1]]);
        assert_eq!(get("없는 절"), None);
    }
}
