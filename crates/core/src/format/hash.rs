//! The stable 64-bit term hash that keys the per-incident filters.
//!
//! It is XXH3-64 over the term's UTF-8 bytes, seeded by the field the term was
//! found in. XXH3 is defined on bytes and little-endian arithmetic, so native
//! builds and the wasm module compute the same value; a test pins known values.

use xxhash_rust::xxh3::xxh3_64_with_seed;

/// What a key says of a term in a record. Rare terms are keyed under
/// [`Field::Any`], and again under the other fields that hold for them, so that the
/// ranking can weigh where and how often a record uses a term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// Anywhere in the record.
    Any,
    /// The title.
    Title,
    /// One of the terms the record uses most (twice or more, or in the 요약).
    Often,
    /// Only as a part of a longer unit (`인증` of `인증서`), never as a word of its own.
    Part,
}

impl Field {
    /// The seed that separates this field's keys from the others'.
    const fn seed(self) -> u64 {
        match self {
            Field::Any => 0x494c_0000_0000_0001,
            Field::Title => 0x494c_0000_0000_0002,
            Field::Often => 0x494c_0000_0000_0003,
            Field::Part => 0x494c_0000_0000_0004,
        }
    }
}

/// The filter key of `term` (already normalised) in `field`.
pub fn term_key(term: &str, field: Field) -> u64 {
    xxh3_64_with_seed(term.as_bytes(), field.seed())
}

/// The key of `term_key` for incident `doc` in its chunk's filter: one filter holds
/// every incident's keys, each told apart by the incident number. (The filter
/// hashes keys again with its own seed, so a plain mix is enough.)
pub fn doc_key(term_key: u64, doc: usize) -> u64 {
    term_key ^ (doc as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The checksum stored in index files: XXH3-64 of the payload.
pub fn checksum(bytes: &[u8]) -> u64 {
    xxh3_64_with_seed(bytes, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_pinned() {
        // Literal values, so that a change of hash function, seed or field is noticed:
        // it would make every published index unreadable to the new code. Such a
        // change must bump `format::FORMAT_VERSION` and regenerate the saved bundle
        // of tests/fixtures/format-vN (see tests/format_guard.rs).
        assert_eq!(term_key("재시도", Field::Any), 0xd6db689fad391da7);
        assert_eq!(term_key("재시도", Field::Title), 0xed9b1851425eb4c1);
        assert_eq!(term_key("dns", Field::Often), 0x760d5e32a0e46c3c);
        assert_eq!(term_key("중단", Field::Part), 0x97c323a248f17281);
        assert_eq!(doc_key(term_key("재시도", Field::Any), 7), 0x2760a554576afd0f);
        assert_eq!(checksum(b""), 0x2d06800538d394c2);
    }
}
