//! The container every index file is wrapped in: a fixed header with magic,
//! format version, file kind, build, payload length and checksum, then the payload.
//!
//! ```text
//! offset size  field
//! 0      4     magic  "ILIX"
//! 4      2     format version, u16 little-endian (FORMAT_VERSION)
//! 6      1     kind (1 meta, 2 listing chunk, 4 vocabulary block, 5 near-term
//!                    bucket; 3, the term parts of versions 3 to 7, is not used)
//! 7      1     reserved, 0
//! 8      8     build, u64 little-endian: the same in every file of one build
//! 16     4     payload length in bytes, u32 little-endian
//! 20     4     checksum of the payload: the low 32 bits of its XXH3-64, u32
//!              little-endian ([`payload_checksum`])
//! 24     n     payload (postcard encoding of the kind's structure)
//! ```
//!
//! `docs/index-format.md` describes the payloads. Reading checks every field and
//! turns any mismatch into a [`FormatError`]; it never panics on bad bytes. The
//! build is not covered by the checksum: a bundle's files are written with build 0,
//! the bundle's version is a hash of them, and [`stamp`] then writes that version
//! into every header. An index checks each file it adds against its `meta.bin`'s
//! build, so files of two deploys are never read as one index.

pub mod bitset;
pub mod hash;
pub mod membership;
pub mod near;
pub mod vocab;

use std::fmt;

use serde::{de::DeserializeOwned, Serialize};

/// The four bytes every index file starts with.
pub const MAGIC: [u8; 4] = *b"ILIX";
/// The format version this code reads and writes.
pub const FORMAT_VERSION: u16 = 12;
/// Header length in bytes.
pub const HEADER_LEN: usize = 24;
/// Where the build sits in the header.
pub const BUILD_AT: std::ops::Range<usize> = 8..16;
/// Where the payload's length sits in the header.
pub const LENGTH_AT: std::ops::Range<usize> = 16..20;
/// Where the payload's checksum sits in the header.
pub const CHECKSUM_AT: std::ops::Range<usize> = 20..24;

/// What an index file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Facets, per-incident ids and dates, lexicon, the vocabulary's directory.
    Meta = 1,
    /// Listing text of a chunk: each incident's title and summary (its id, organisation,
    /// date and facets live in the meta file).
    Listing = 2,
    /// One block of the vocabulary, with its terms' incidents and keys.
    Vocab = 4,
    /// One bucket of near terms ([`crate::near`]).
    Near = 5,
}

impl Kind {
    /// A lower-case name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Meta => "meta",
            Kind::Listing => "listing",
            Kind::Vocab => "vocabulary block",
            Kind::Near => "near-term bucket",
        }
    }
}

/// Why bytes could not be read as an index file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than the header or than the payload length it announces.
    Truncated {
        /// Bytes expected.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Does not start with `ILIX`.
    BadMagic,
    /// Written by another format version.
    UnsupportedVersion(u16),
    /// Holds another kind of data than the caller asked for.
    WrongKind {
        /// The kind asked for.
        expected: Kind,
        /// The byte found.
        found: u8,
    },
    /// The payload's checksum does not match the header.
    ChecksumMismatch,
    /// Longer than the header announces.
    TrailingBytes(usize),
    /// The checksum matched but the payload did not decode.
    Decode(String),
    /// A file of another build than the `meta.bin` it is read with: the library
    /// was deployed anew between the two reads.
    OtherBuild {
        /// The build of `meta.bin`.
        expected: u64,
        /// The build of this file.
        found: u64,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Truncated { expected, found } => {
                write!(f, "truncated index file: expected {expected} bytes, found {found}; rebuild the index")
            }
            FormatError::BadMagic => write!(f, "not an Incident Library index file (bad magic)"),
            FormatError::UnsupportedVersion(v) => write!(
                f,
                "index format version {v} is not supported (this build reads version {FORMAT_VERSION}); rebuild the index with this version"
            ),
            FormatError::WrongKind { expected, found } => {
                write!(f, "expected a {} file, found kind {found}", expected.name())
            }
            FormatError::ChecksumMismatch => write!(f, "index file is corrupted (checksum mismatch); rebuild the index"),
            FormatError::TrailingBytes(n) => write!(f, "index file has {n} unexpected trailing bytes; rebuild the index"),
            FormatError::Decode(e) => write!(f, "index payload does not decode: {e}; rebuild the index"),
            FormatError::OtherBuild { expected, found } => write!(
                f,
                "belongs to build {found:016x}, not to build {expected:016x} of meta.bin: the library was replaced while it was read; reload it (a folder on disk: build it again)"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// The checksum a header holds for `payload`: 32 bits, which tell a damaged or
/// cut file from a sound one as surely as 64 and cost four bytes less in each of
/// the dozens of small files a search fetches.
pub fn payload_checksum(payload: &[u8]) -> u32 {
    crate::hash::checksum(payload) as u32
}

/// Encodes `value` as a file of the given kind.
pub fn encode<T: Serialize>(kind: Kind, value: &T) -> Vec<u8> {
    // postcard only fails on writers that run out of room; a Vec never does.
    let payload = postcard::to_allocvec(value).expect("postcard encoding into a Vec cannot fail");
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(kind as u8);
    out.push(0);
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload_checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Writes `build` into the header of `file` (an encoded index file); bytes too
/// short to hold a header are left as they are.
pub fn stamp(file: &mut [u8], build: u64) {
    if let Some(at) = file.get_mut(BUILD_AT) {
        at.copy_from_slice(&build.to_le_bytes());
    }
}

/// The build in the header of `bytes`, when they start like an index file of this
/// format version.
pub fn build_of(bytes: &[u8]) -> Option<u64> {
    let head = bytes.get(..HEADER_LEN)?;
    (head[..4] == MAGIC && u16::from_le_bytes([head[4], head[5]]) == FORMAT_VERSION)
        .then(|| u64::from_le_bytes(head[BUILD_AT].try_into().unwrap_or([0; 8])))
}

/// Decodes a file of the given kind that must belong to build `build`, checking
/// every header field.
pub fn decode_built<T: DeserializeOwned>(kind: Kind, bytes: &[u8], build: u64) -> Result<T, FormatError> {
    decode_payload(payload(kind, bytes, Some(build))?)
}

/// Decodes a file of the given kind, checking every header field.
pub fn decode<T: DeserializeOwned>(kind: Kind, bytes: &[u8]) -> Result<T, FormatError> {
    decode_payload(payload(kind, bytes, None)?)
}

/// The payload of `bytes` once every header field is checked: magic, version,
/// kind, length, checksum, then (when given) the build. Not generic, so the
/// checks exist once in the wasm module whatever the kinds.
fn payload(kind: Kind, bytes: &[u8], build: Option<u64>) -> Result<&[u8], FormatError> {
    if bytes.len() < HEADER_LEN {
        if bytes.len() >= 4 && bytes[..4] != MAGIC {
            return Err(FormatError::BadMagic);
        }
        return Err(FormatError::Truncated {
            expected: HEADER_LEN,
            found: bytes.len(),
        });
    }
    if bytes[..4] != MAGIC {
        return Err(FormatError::BadMagic);
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != FORMAT_VERSION {
        return Err(FormatError::UnsupportedVersion(version));
    }
    if bytes[6] != kind as u8 {
        return Err(FormatError::WrongKind {
            expected: kind,
            found: bytes[6],
        });
    }
    let word = |at: std::ops::Range<usize>| u64::from_le_bytes(bytes[at].try_into().unwrap_or([0; 8]));
    let len = u32::from_le_bytes(bytes[LENGTH_AT].try_into().unwrap_or([0; 4])) as usize;
    let total = HEADER_LEN.saturating_add(len);
    if bytes.len() < total {
        return Err(FormatError::Truncated {
            expected: total,
            found: bytes.len(),
        });
    }
    if bytes.len() > total {
        return Err(FormatError::TrailingBytes(bytes.len() - total));
    }
    let payload = &bytes[HEADER_LEN..];
    if payload_checksum(payload).to_le_bytes() != bytes[CHECKSUM_AT] {
        return Err(FormatError::ChecksumMismatch);
    }
    match build {
        Some(expected) if word(BUILD_AT) != expected => Err(FormatError::OtherBuild {
            expected,
            found: word(BUILD_AT),
        }),
        _ => Ok(payload),
    }
}

/// A checked payload as the kind's structure, with nothing left over.
fn decode_payload<T: DeserializeOwned>(payload: &[u8]) -> Result<T, FormatError> {
    let (value, rest) = postcard::take_from_bytes(payload).map_err(|e| FormatError::Decode(e.to_string()))?;
    if !rest.is_empty() {
        return Err(FormatError::Decode(format!(
            "{} bytes left after the payload",
            rest.len()
        )));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_corruption() {
        let value = (String::from("재시도"), vec![1u32, 2, 3]);
        let bytes = encode(Kind::Meta, &value);
        assert_eq!(decode::<(String, Vec<u32>)>(Kind::Meta, &bytes).unwrap(), value);

        for cut in [0, 3, 10, HEADER_LEN, bytes.len() - 1] {
            let err = decode::<(String, Vec<u32>)>(Kind::Meta, &bytes[..cut]).unwrap_err();
            assert!(matches!(err, FormatError::Truncated { .. }), "cut {cut}: {err}");
        }
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(
            decode::<(String, Vec<u32>)>(Kind::Meta, &bad).unwrap_err(),
            FormatError::BadMagic
        );
        let mut bad = bytes.clone();
        let next = FORMAT_VERSION + 1;
        bad[4..6].copy_from_slice(&next.to_le_bytes());
        assert_eq!(
            decode::<(String, Vec<u32>)>(Kind::Meta, &bad).unwrap_err(),
            FormatError::UnsupportedVersion(next)
        );
        assert!(matches!(
            decode::<(String, Vec<u32>)>(Kind::Listing, &bytes).unwrap_err(),
            FormatError::WrongKind { .. }
        ));
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 0xff;
        assert_eq!(
            decode::<(String, Vec<u32>)>(Kind::Meta, &bad).unwrap_err(),
            FormatError::ChecksumMismatch
        );
        let mut bad = bytes.clone();
        bad.push(0);
        assert_eq!(
            decode::<(String, Vec<u32>)>(Kind::Meta, &bad).unwrap_err(),
            FormatError::TrailingBytes(1)
        );
    }

    #[test]
    fn a_stamped_build_is_checked_and_leaves_the_checksum_valid() {
        let value = vec![7u32, 8];
        let mut bytes = encode(Kind::Near, &value);
        assert_eq!(build_of(&bytes), Some(0));
        stamp(&mut bytes, 0x1234_5678_9abc_def0);
        assert_eq!(build_of(&bytes), Some(0x1234_5678_9abc_def0));
        assert_eq!(decode::<Vec<u32>>(Kind::Near, &bytes).unwrap(), value);
        assert_eq!(
            decode_built::<Vec<u32>>(Kind::Near, &bytes, 0x1234_5678_9abc_def0).unwrap(),
            value
        );
        assert_eq!(
            decode_built::<Vec<u32>>(Kind::Near, &bytes, 5).unwrap_err(),
            FormatError::OtherBuild {
                expected: 5,
                found: 0x1234_5678_9abc_def0
            }
        );
        // Damage is reported as damage, not as another build.
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        assert_eq!(
            decode_built::<Vec<u32>>(Kind::Near, &bytes, 5).unwrap_err(),
            FormatError::ChecksumMismatch
        );
        assert_eq!(build_of(b"ILIX"), None);
        let mut short = b"ILIX".to_vec();
        stamp(&mut short, 9);
        assert_eq!(short, b"ILIX");
    }

    use proptest::prelude::*;

    /// Bytes that pass the header's checks (magic, version, kind, length, checksum)
    /// around an arbitrary payload, so that the payload reaches the decoder.
    fn sealed(kind: Kind, payload: &[u8], build: u64) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(kind as u8);
        out.push(0);
        out.extend_from_slice(&build.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&crate::hash::checksum(payload).to_le_bytes());
        out.extend_from_slice(payload);
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any bytes, sealed or not, read as any kind of file: an answer or an
        /// error, never a panic.
        #[test]
        fn no_bytes_make_a_decoder_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512), build in any::<u64>()) {
            use crate::index::{ListingChunk, Meta, VocabBlock};
            for candidate in [bytes.clone(), sealed(Kind::Meta, &bytes, build)] {
                let _ = decode::<Meta>(Kind::Meta, &candidate);
                let _ = decode_built::<Meta>(Kind::Meta, &candidate, build);
            }
            let _ = decode::<VocabBlock>(Kind::Vocab, &sealed(Kind::Vocab, &bytes, build));
            let _ = decode::<ListingChunk>(Kind::Listing, &sealed(Kind::Listing, &bytes, build));
            let _ = decode::<crate::near::NearBucket>(Kind::Near, &sealed(Kind::Near, &bytes, build));
            let _ = build_of(&bytes);
        }

        /// What is encoded decodes to itself, with any build stamped on it, and a
        /// reader of another build refuses it.
        #[test]
        fn encoded_values_read_back_under_their_build(words in proptest::collection::vec(".{0,12}", 0..8), numbers in proptest::collection::vec(any::<u32>(), 0..64), build in any::<u64>()) {
            let value = (words, numbers);
            let mut bytes = encode(Kind::Near, &value);
            stamp(&mut bytes, build);
            prop_assert_eq!(build_of(&bytes), Some(build));
            prop_assert_eq!(&decode_built::<(Vec<String>, Vec<u32>)>(Kind::Near, &bytes, build).unwrap(), &value);
            let other = build.wrapping_add(1);
            prop_assert_eq!(
                decode_built::<(Vec<String>, Vec<u32>)>(Kind::Near, &bytes, other).unwrap_err(),
                FormatError::OtherBuild { expected: other, found: build }
            );
        }
    }
}
