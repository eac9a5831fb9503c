//! Every weight of the ranking, in one place: how much each reading of a query word
//! counts ([`crate::query`]) and how much each field of a record counts
//! ([`crate::search`]). `docs/ranking.md` gives the formula and names these same
//! constants; [`crate::query`] and [`crate::search`] re-export them, so
//! `query::BARE_WEIGHT` and `search::TITLE_WEIGHT` still name them.
//!
//! A reading's weight multiplies the score of the incidents it matches. The word as
//! typed is the measure (1.0); every other reading is a guess at what was meant and
//! counts less the less sure the guess, so that of two incidents, the one with what
//! was typed comes first.

// ---- Readings of a query word (query analysis).

/// The word as typed (normalised): what every other reading is measured against.
pub const EXACT_WEIGHT: f32 = 1.0;
/// Neighbouring words read as one (`로드 밸런서` → `로드밸런서`): the records write the
/// same term without the space, so it is as sure as the word itself.
pub const JOINED_WEIGHT: f32 = 1.0;
/// A taxonomy value named by a phrase (`메모리 부족`): a whole label or synonym typed
/// out names the value as surely as the word names itself.
pub const PHRASE_SYNONYM_WEIGHT: f32 = 1.0;
/// The bare form (`재시도를` → `재시도`): a particle or ending changes the grammar,
/// not the subject, so it is nearly the word; just below, so that the word as typed
/// wins a tie.
pub const BARE_WEIGHT: f32 = 0.9;
/// A predicate stem (`멈춤` → `멈추`), or the noun of a 하다 verb (`재시작했더니` →
/// `재시작`): a guess the particle table can be wrong about, so below the bare form.
pub const STEM_WEIGHT: f32 = 0.85;
/// Factor on the bare and stem readings of a word that is itself a term: then a
/// shorter reading is most likely a mis-split (인증서 is not 인증 + the particle 서),
/// so it counts for much less (0.9 × 0.4, 0.85 × 0.4).
pub const KNOWN_WORD_FACTOR: f32 = 0.4;
/// A word split over the vocabulary (`재시도증폭` → `재시도` + `증폭`), and Latin parts
/// (`oom-killed` → `oom` + `killed`): every part must match, but a record may have
/// the parts apart, not as the one thing typed.
pub const SEGMENT_WEIGHT: f32 = 0.8;
/// A lexicon reading (`깃허브` → `github`): the lexicon is curated, so it is nearly
/// sure, but the record says it in other words than those typed.
pub const LEXICON_WEIGHT: f32 = 0.85;
/// A taxonomy value named by one word (`OOM`): one word may name a value in passing,
/// so below a phrase that names one ([`PHRASE_SYNONYM_WEIGHT`]).
pub const SYNONYM_WEIGHT: f32 = 0.9;
/// A completion of the last word (`잿` → `재시도`), and a 초성 reading (`ㅈㅅㄷ` →
/// `재시도`): one of several terms the keys typed may become.
pub const PREFIX_WEIGHT: f32 = 0.7;
/// A typo reading (`재시두` → `재시도`): tried only when the word as typed matches
/// nothing, and a near term is likely but not certainly meant, so below every reading
/// of what was typed.
pub const TYPO_WEIGHT: f32 = 0.6;
/// A partial reading (`대정전` → `정전`) that covers the whole word; less for less
/// (times the share of the word covered). The weakest: a part of a word is often
/// another thing, and such a match is never a full match.
pub const PARTIAL_WEIGHT: f32 = 0.5;

// ---- Fields of a record (scoring).

/// Pseudo term frequency that a title occurrence adds: the title names the incident.
pub const TITLE_WEIGHT: f32 = 3.0;
/// Pseudo term frequency of a match through the classification (a taxonomy value
/// the query names): a classification is a judgement, not a mention.
pub const META_WEIGHT: f32 = 2.0;
/// Pseudo term frequency of a body match by level: a term the record mentions; one
/// it uses most ([`crate::index::Index::level`]). A term the record is about counts
/// more than a mention.
pub const LEVEL_TF: [f32; 2] = [1.0, 2.5];
/// BM25's term-frequency saturation: the usual value.
pub const K1: f32 = 1.2;
/// BM25's length normalisation (0 none, 1 full): records are short and of similar
/// length; measured to make no difference between 0.25 and 0.6.
pub const B: f32 = 0.4;
/// Multiplier for a record that has the term only as a part of a longer word: a part
/// is often another thing (중단 in 무중단).
pub const PART_WEIGHT: f32 = 0.4;
