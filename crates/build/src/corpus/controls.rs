//! One text rule for every file of the corpus: no control character (NUL, escape,
//! bell, …; a tab, a line end and a carriage return are text), whether it is in the
//! file as a raw byte or written as a TOML escape (`"\u001b"`, `"\e"`, `"\x07"`,
//! `"\b"`) that decodes to one. Such characters would reach the pages, the API, MCP
//! and terminals as they are.

use std::path::Path;

use super::diagnostic::{diag, Diagnostic, Problem};

/// True for a character the rule refuses.
pub(super) fn is_refused(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// The first refused character of each line of `text` (1-based lines), raw or,
/// where `toml` is set, decoded from an escape inside a TOML basic string.
pub(super) fn refused(text: &str, toml: bool) -> Vec<(usize, char)> {
    let mut found: Vec<(usize, char)> = Vec::new();
    let mut note = |line: usize, c: char| {
        if found.last().is_none_or(|&(l, _)| l != line) {
            found.push((line, c));
        }
    };
    for (i, line) in text.split('\n').enumerate() {
        if let Some(c) = line.chars().find(|&c| is_refused(c)) {
            note(i + 1, c);
        }
    }
    if toml {
        for (line, c) in escaped(text) {
            note(line, c);
        }
    }
    found.sort_by_key(|&(l, _)| l);
    found.dedup_by_key(|&mut (l, _)| l);
    found
}

/// Refused characters that TOML escapes in basic strings decode to, with their
/// lines. Literal strings (`'…'`) and comments hold no escapes.
pub(super) fn escaped(text: &str) -> Vec<(usize, char)> {
    #[derive(PartialEq)]
    enum In {
        Code,
        Comment,
        Basic,
        MultiBasic,
        Literal,
        MultiLiteral,
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut state, mut line, mut i) = (In::Code, 1, 0);
    let starts = |i: usize, s: &str| s.chars().enumerate().all(|(k, c)| chars.get(i + k) == Some(&c));
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            if state == In::Comment {
                state = In::Code;
            }
            i += 1;
            continue;
        }
        match state {
            In::Code => {
                if c == '#' {
                    state = In::Comment;
                } else if starts(i, "\"\"\"") {
                    state = In::MultiBasic;
                    i += 2;
                } else if c == '"' {
                    state = In::Basic;
                } else if starts(i, "'''") {
                    state = In::MultiLiteral;
                    i += 2;
                } else if c == '\'' {
                    state = In::Literal;
                }
            }
            In::Comment => {}
            In::Literal if c == '\'' => state = In::Code,
            In::MultiLiteral if starts(i, "'''") => {
                state = In::Code;
                i += 2;
            }
            In::Literal | In::MultiLiteral => {}
            In::Basic | In::MultiBasic => {
                if c == '\\' {
                    let (decoded, used) = decode(&chars[i + 1..]);
                    if let Some(d) = decoded.filter(|&d| is_refused(d)) {
                        out.push((line, d));
                    }
                    i += 1 + used;
                    continue;
                }
                if state == In::Basic && c == '"' {
                    state = In::Code;
                } else if state == In::MultiBasic && starts(i, "\"\"\"") {
                    state = In::Code;
                    i += 2;
                }
            }
        }
        i += 1;
    }
    out
}

/// The character an escape decodes to (`rest` follows the backslash), and how many
/// characters of `rest` it takes.
fn decode(rest: &[char]) -> (Option<char>, usize) {
    let hex = |n: usize| -> (Option<char>, usize) {
        let digits: String = rest.iter().skip(1).take(n).collect();
        let c = u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32);
        (c, 1 + digits.len())
    };
    match rest.first() {
        Some('u') => hex(4),
        Some('U') => hex(8),
        Some('x') => hex(2),
        Some('b') => (Some('\u{8}'), 1),
        Some('f') => (Some('\u{c}'), 1),
        Some('e') => (Some('\u{1b}'), 1),
        // A line-ending backslash joins lines; the line end is counted as one.
        Some('\n' | '\r') => (None, 0),
        Some(_) => (None, 1),
        None => (None, 0),
    }
}

/// Reports each refused character of the TOML file `path` (text `text`) on its line.
pub(crate) fn check_toml(path: &Path, text: &str, diags: &mut Vec<Diagnostic>) {
    for (line, c) in refused(text, true) {
        diags.push(refused_diag(path, line, None, c));
    }
}

/// The diagnostic for a refused character, the same for a raw byte and an escape.
pub(super) fn refused_diag(path: &Path, line: usize, field: Option<&str>, c: char) -> Diagnostic {
    diag(
        path,
        line,
        field,
        Problem::BadValue,
        format!("the text holds the control character U+{:04X}", c as u32),
        Some("remove it (as a raw character or an escape such as \\u001b): the corpus is plain text, and the pages, the API and terminals would show it as it is"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_and_escaped_control_characters_are_found_on_their_lines() {
        let text = "title = \"a \\u001b[31m red\"\nok = \"tab\\t and \\n are text\"\n# a comment \\u0007 is no string\nlit = 'C:\\u0007 is literal'\nbell = \"\\x07\"\nesc = \"\\e\"\nraw = \"\u{7}\"\nml = \"\"\"\nline\\b\n\"\"\"\nnul = \"\\U00000000\"\n";
        let found: Vec<(usize, u32)> = refused(text, true).into_iter().map(|(l, c)| (l, c as u32)).collect();
        assert_eq!(found, [(1, 0x1b), (5, 0x07), (6, 0x1b), (7, 0x07), (9, 0x08), (11, 0)]);
        // Without the TOML reading only the raw byte counts (a Markdown body).
        assert_eq!(refused(text, false).len(), 1);
    }
}
