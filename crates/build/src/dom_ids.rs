//! The ids of the page elements that `www/app.js` looks up. They are named in one
//! place, the `ID` block of app.js (one `name: "id",` a line), which this module
//! reads when the crate is compiled: [`id!`]`(searchForm)` is `"search-form"`, and a
//! name the block lacks is a compile error.

/// The script whose `ID` block names the ids.
const APP_JS: &str = include_str!("../../../www/app.js");
/// The line that opens the block; the block ends at a line `});`.
const OPEN: &[u8] = b"const ID = Object.freeze({\n";

/// The id that the `ID` block of `www/app.js` gives `name`, as a constant: a name
/// the block lacks does not compile.
macro_rules! id {
    ($name:ident) => {{
        const ID: &str = crate::dom_ids::named(stringify!($name));
        ID
    }};
}
pub(crate) use id;

/// The id that the `ID` block of `www/app.js` gives `name`; panics (at compile
/// time, in a constant) when there is none.
pub const fn named(name: &str) -> &'static str {
    match lookup(APP_JS, name) {
        Some(id) => id,
        None => panic!("a name that the ID block of www/app.js lacks"),
    }
}

/// Every `(name, id)` of the `ID` block of `www/app.js`, in its order.
#[cfg(test)]
pub fn all() -> Vec<(&'static str, &'static str)> {
    entries(APP_JS)
}

/// Every `(name, id)` of the `ID` block in `src`.
#[cfg(test)]
fn entries(src: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut at = block(src.as_bytes());
    while let Some([n0, n1, v0, v1, next]) = entry(src.as_bytes(), at) {
        out.push((part(src, n0, n1), part(src, v0, v1)));
        at = next;
    }
    out
}

/// The id given `name` in the `ID` block of `src`.
const fn lookup<'a>(src: &'a str, name: &str) -> Option<&'a str> {
    let bytes = src.as_bytes();
    let mut at = block(bytes);
    while let Some([n0, n1, v0, v1, next]) = entry(bytes, at) {
        if same(bytes, n0, n1, name.as_bytes()) {
            return Some(part(src, v0, v1));
        }
        at = next;
    }
    None
}

/// Where the first line of the block starts.
const fn block(src: &[u8]) -> usize {
    let mut at = 0;
    while at + OPEN.len() <= src.len() {
        if (at == 0 || src[at - 1] == b'\n') && same(src, at, at + OPEN.len(), OPEN) {
            return at + OPEN.len();
        }
        at += 1;
    }
    panic!("www/app.js: no line `const ID = Object.freeze({{`");
}

/// The line of the block at `at`: `[name start, name end, id start, id end, next
/// line]`, or `None` at the line `});` that ends the block. Any other line panics.
const fn entry(src: &[u8], mut at: usize) -> Option<[usize; 5]> {
    if same(src, at, at + 3, b"});") {
        return None;
    }
    let malformed = "www/app.js: a line of the ID block is not `  name: \"id\",`";
    while at < src.len() && src[at] == b' ' {
        at += 1;
    }
    let n0 = at;
    while at < src.len() && (src[at].is_ascii_alphanumeric() || src[at] == b'_') {
        at += 1;
    }
    let n1 = at;
    if n1 == n0 || !same(src, at, at + 3, b": \"") {
        panic!("{}", malformed);
    }
    at += 3;
    let v0 = at;
    // An id as the pages and `getElementById` take it: letters, digits, `-`, `_`.
    while at < src.len() && (src[at].is_ascii_alphanumeric() || src[at] == b'-' || src[at] == b'_') {
        at += 1;
    }
    let v1 = at;
    if v1 == v0 || !same(src, at, at + 3, b"\",\n") {
        panic!("{}", malformed);
    }
    Some([n0, n1, v0, v1, at + 3])
}

/// True when `src[from..to]` is `text`.
const fn same(src: &[u8], from: usize, to: usize, text: &[u8]) -> bool {
    if to > src.len() || to - from != text.len() {
        return false;
    }
    let mut i = 0;
    while i < text.len() {
        if src[from + i] != text[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `src[from..to]`, which the parser found to be ASCII.
const fn part(src: &str, from: usize, to: usize) -> &str {
    let (_, rest) = src.as_bytes().split_at(from);
    let (text, _) = rest.split_at(to - from);
    match std::str::from_utf8(text) {
        Ok(s) => s,
        Err(_) => panic!("not ASCII"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "const x = 1;\n// const ID = Object.freeze({\nconst ID = Object.freeze({\n  q: \"q\",\n  searchForm: \"search-form\",\n});\nconst y = { a: \"b\",\n};\n";

    #[test]
    fn reads_the_block_line_by_line() {
        assert_eq!(entries(SAMPLE), [("q", "q"), ("searchForm", "search-form")]);
        assert_eq!(lookup(SAMPLE, "searchForm"), Some("search-form"));
        assert_eq!(lookup(SAMPLE, "search"), None);
        assert_eq!(lookup(SAMPLE, "a"), None, "only the ID block counts");
        const Q: &str = match lookup(SAMPLE, "q") {
            Some(q) => q,
            None => "",
        };
        assert_eq!(Q, "q", "at compile time too");
    }

    #[test]
    #[should_panic(expected = "not `  name: \"id\",`")]
    fn refuses_a_line_it_cannot_read() {
        entries("const ID = Object.freeze({\n  q: 'q',\n});\n");
    }

    #[test]
    #[should_panic(expected = "not `  name: \"id\",`")]
    fn refuses_an_id_with_a_quote_or_space() {
        entries("const ID = Object.freeze({\n  q: \"a b\",\n});\n");
    }

    #[test]
    #[should_panic(expected = "no line `const ID = Object.freeze({`")]
    fn refuses_a_script_without_the_block() {
        entries("const ID = {\n  q: \"q\",\n};\n");
    }

    #[test]
    fn the_app_names_distinct_ids() {
        let all = all();
        assert!(all.len() >= 15, "{all:?}");
        assert_eq!(id!(searchForm), "search-form");
        let mut names: Vec<_> = all.iter().map(|(n, _)| n).collect();
        let mut ids: Vec<_> = all.iter().map(|(_, i)| i).collect();
        names.sort();
        names.dedup();
        ids.sort();
        ids.dedup();
        assert_eq!((names.len(), ids.len()), (all.len(), all.len()), "{all:?}");
    }
}
