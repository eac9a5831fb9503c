//! Reading an index: whole from its files (natively), or from `meta.bin` and then
//! each file a search names (in the browser), every file checked against the
//! meta and its build, every failure a [`LoadError`] naming the file.

use super::assemble;
use super::{Directory, Index, ListingChunk, Loaded, Meta, VocabBlock};
use crate::bitset::Bitset;
use crate::format::{self, FormatError, Kind};
use std::sync::Mutex;

/// Why an index could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// Which file.
    pub file: String,
    /// What is wrong with it.
    pub error: FormatError,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.error)
    }
}

impl std::error::Error for LoadError {}

fn cannot_read(file: &str, e: impl std::fmt::Display) -> LoadError {
    LoadError {
        file: file.to_string(),
        error: FormatError::Decode(format!("cannot read: {e}")),
    }
}

impl Loaded {
    /// Decodes and checks every block and bucket of an index whose meta is `meta`.
    pub fn decode(
        meta: &Meta,
        blocks: Vec<VocabBlock>,
        near: Vec<crate::near::NearBucket>,
    ) -> Result<Loaded, LoadError> {
        if blocks.len() != meta.vocab.blocks() || near.len() != meta.near_buckets as usize {
            return Err(LoadError {
                file: "meta.bin".into(),
                error: FormatError::Decode("the vocabulary blocks or near-term buckets differ from the meta".into()),
            });
        }
        let (blocks, parts) = checked(blocks, Directory::file, |b, block| {
            assemble::check_block(meta, b, block)
        })?
        .into_iter()
        .map(|pair| pair.map_or((None, None), |(vocab, part)| (Some(vocab), Some(part))))
        .unzip();
        let near = checked(near, crate::near::file, |b, bucket| {
            assemble::check_near(meta, b, bucket)
        })?;
        Ok(Loaded { blocks, parts, near })
    }
}

/// Each of `items` checked by `check` with its number, as loaded data; the first
/// failure names its file (`file` of its number).
fn checked<T, U>(
    items: impl IntoIterator<Item = T>,
    file: fn(usize) -> String,
    check: impl Fn(usize, T) -> Result<U, FormatError>,
) -> Result<Vec<Option<U>>, LoadError> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            check(i, item)
                .map(Some)
                .map_err(|error| LoadError { file: file(i), error })
        })
        .collect()
}

impl Index {
    /// Loads an index completely from its files: `read(name)` returns the bytes of a
    /// file of the index folder (`meta.bin`, then every file the meta implies).
    pub fn load<E: std::fmt::Display>(mut read: impl FnMut(&str) -> Result<Vec<u8>, E>) -> Result<Index, LoadError> {
        let mut index = Index::open(&mut read)?;
        let files: Vec<String> = index.data_files().into_iter().chain(index.listing_files()).collect();
        for file in files {
            let bytes = read(&file).map_err(|e| cannot_read(&file, e))?;
            index.add_file(&file, &bytes)?;
        }
        Ok(index)
    }

    /// Opens an index for searching from `meta.bin` alone. Searches name the
    /// vocabulary blocks, near-term buckets and listing files they need in
    /// [`crate::search::Response::missing`]; [`Index::add_file`] adds them.
    pub fn open<E: std::fmt::Display>(mut read: impl FnMut(&str) -> Result<Vec<u8>, E>) -> Result<Index, LoadError> {
        let meta_bytes = read("meta.bin").map_err(|e| cannot_read("meta.bin", e))?;
        let meta: Meta = format::decode(Kind::Meta, &meta_bytes).map_err(|error| LoadError {
            file: "meta.bin".into(),
            error,
        })?;
        let data = Loaded {
            blocks: vec![None; meta.vocab.blocks()],
            parts: vec![None; meta.vocab.blocks()],
            near: vec![None; meta.near_buckets as usize],
        };
        let mut index = Index::from_parts(meta, data)?;
        index.build = format::build_of(&meta_bytes).unwrap_or(0);
        Ok(index)
    }

    /// Assembles an index from a decoded meta and the blocks and parts loaded so far,
    /// checking that they agree.
    pub fn from_parts(mut meta: Meta, data: Loaded) -> Result<Index, LoadError> {
        assemble::check_shape(&meta, &data)?;
        // Every value's set sized to every incident, whatever the file wrote.
        let all = Bitset::empty(meta.ids.len());
        for value in meta.facets.iter_mut().flat_map(|f| f.values.iter_mut()) {
            value.docs.or_with(&all);
        }
        let mean_length = assemble::mean_length(&meta);
        assemble::check_lexicon(&meta)?;
        Ok(Index {
            build: 0,
            mean_length,
            lexicon_keys: std::sync::OnceLock::new(),
            keyed_lexicon: std::sync::OnceLock::new(),
            completed: Mutex::new(None),
            texts: vec![None; meta.ids.len()],
            meta,
            data,
            missing: Mutex::new(Vec::new()),
            misses: std::sync::atomic::AtomicUsize::new(0),
            names: std::sync::OnceLock::new(),
        })
    }

    /// Every vocabulary block and near-term bucket file, in order.
    pub fn data_files(&self) -> Vec<String> {
        (0..self.data.blocks.len())
            .map(Directory::file)
            .chain((0..self.data.near.len()).map(crate::near::file))
            .collect()
    }

    /// Adds an index file that a response named in `missing`: a vocabulary block, a
    /// near-term bucket or a listing file. Adding one that is loaded already reads
    /// and checks it again, in place of the one loaded.
    pub fn add_file(&mut self, file: &str, bytes: &[u8]) -> Result<(), LoadError> {
        let fail = |error: FormatError| LoadError {
            file: file.to_string(),
            error,
        };
        let not_ours = || fail(FormatError::Decode("not a file of this index".into()));
        let number = |prefix: &str| {
            file.strip_prefix(prefix)
                .and_then(|f| f.strip_suffix(".bin"))
                .filter(|c| c.len() >= 4 && c.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|c| c.parse::<usize>().ok())
        };
        if file.starts_with("listing-") {
            return self.add_listings(file, bytes);
        }
        if let Some(b) = number("vocab-") {
            if b >= self.data.blocks.len() || Directory::file(b) != file {
                return Err(not_ours());
            }
            let block: VocabBlock = format::decode_built(Kind::Vocab, bytes, self.build).map_err(fail)?;
            let (vocab, part) = assemble::check_block(&self.meta, b, block).map_err(fail)?;
            self.data.blocks[b] = Some(vocab);
            self.data.parts[b] = Some(part);
            return Ok(());
        }
        if let Some(b) = number("near-") {
            if b >= self.data.near.len() || crate::near::file(b) != file {
                return Err(not_ours());
            }
            let bucket: crate::near::NearBucket = format::decode_built(Kind::Near, bytes, self.build).map_err(fail)?;
            self.data.near[b] = Some(assemble::check_near(&self.meta, b, bucket).map_err(fail)?);
            return Ok(());
        }
        Err(not_ours())
    }

    /// Adds the titles and summaries of listing file `file`.
    pub fn add_listings(&mut self, file: &str, bytes: &[u8]) -> Result<(), LoadError> {
        let fail = |error: FormatError| LoadError {
            file: file.to_string(),
            error,
        };
        let per = self.meta.listing_chunk as usize;
        let c = file
            .strip_prefix("listing-")
            .and_then(|f| f.strip_suffix(".bin"))
            .and_then(|c| c.parse::<usize>().ok())
            .filter(|&c| c * per < self.len() && self.listing_file(c * per) == file)
            .ok_or_else(|| fail(FormatError::Decode("not a listing file of this index".into())))?;
        let chunk: ListingChunk = format::decode_built(Kind::Listing, bytes, self.build).map_err(fail)?;
        let start = c * per;
        let end = (start + per).min(self.len());
        if chunk.first as usize != start {
            return Err(fail(FormatError::Decode(format!(
                "holds the listing of incident {}, not {start}",
                chunk.first
            ))));
        }
        if chunk.listings.len() != end - start {
            return Err(fail(FormatError::Decode("chunk length differs from meta.bin".into())));
        }
        for (d, l) in (start..end).zip(chunk.listings) {
            self.texts[d] = Some(Box::new(l));
        }
        Ok(())
    }
}
