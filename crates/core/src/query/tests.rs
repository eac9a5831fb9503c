use super::*;
use crate::bitset::Bitset;
use crate::index::{squash, Facet, FacetValue, Meta, FACETS};

/// An index with only a vocabulary and a taxonomy: enough for analysis.
fn index(terms: &[&str]) -> Index {
    let mut sorted: Vec<&str> = terms.to_vec();
    sorted.sort();
    sorted.dedup();
    let docs = [0u32, 1, 2];
    let listed: Vec<(&str, &[u32])> = sorted.iter().map(|t| (*t, &docs[..])).collect();
    // Every term in every incident: the blocks list them, and no filter keys.
    let (vocab, blocks) = crate::index::vocab_blocks(&listed, 3, |_| crate::membership::TermFilter::build(&[]));
    let value = |slug: &str, ko: &str, syn: &[&str]| FacetValue {
        slug: slug.into(),
        ko: ko.into(),
        en: slug.into(),
        synonyms: syn.iter().map(|s| s.to_string()).collect(),
        aliases: vec![],
        docs: Bitset::empty(3),
    };
    let mut facets: Vec<Facet> = FACETS
        .iter()
        .map(|&crate::facets::FacetDef { key: k, ko, en, .. }| Facet {
            key: k.to_string(),
            ko: ko.to_string(),
            en: en.to_string(),
            values: vec![],
        })
        .collect();
    facets[2].values.push(value(
        "oom-killed",
        "OOMKilled",
        &["OOM", "메모리 부족", "out of memory"],
    ));
    facets[1].values.push(value(
        "cloud-load-balancer",
        "클라우드 로드 밸런서",
        &["로드 밸런서", "LB"],
    ));
    let mut meta = Meta {
        corpus_date: String::new(),
        facets,
        vocab,
        near_buckets: 0,
        near_band: 0,
        ids: vec!["a".into(), "b".into(), "c".into()],
        days: vec![0; 3],
        lengths: vec![1; 3],
        lexicon: vec![],
        listing_chunk: 1,
    };
    let near = crate::near::buckets(listed.iter().map(|(t, d)| (*t, d.len() as u64)), 0);
    meta.near_buckets = near.len() as u32;
    let data = crate::index::Loaded::decode(&meta, blocks, near).unwrap();
    Index::from_parts(meta, data).unwrap()
}

fn terms_of(w: &Word) -> Vec<String> {
    w.alternatives
        .iter()
        .filter(|a| a.facet.is_none())
        .map(|a| a.terms.join("+"))
        .collect()
}

const VOCAB: &[&str] = &[
    "재시도",
    "재시작",
    "재시",
    "장소도",
    "증폭",
    "재시도증폭",
    "캐시",
    "비우",
    "배포",
    "가용",
    "영역",
    "로드밸런서",
    "로드",
    "밸런서",
    "oomkilled",
    "oom",
    "killed",
    "http",
    "5xx",
    "us-east-1",
    "메모리",
    "부족",
    "삭제",
];

#[test]
fn particles_and_endings_reach_the_bare_term() {
    let idx = index(VOCAB);
    let w = analyze("재시도를 캐시가 비우는 삭제했다", &idx, Options::default());
    assert_eq!(
        w.iter().map(|w| terms_of(w)[0].clone()).collect::<Vec<_>>(),
        ["재시도", "캐시", "비우", "삭제"]
    );
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Bare);
}

#[test]
fn spacing_either_way() {
    let idx = index(VOCAB);
    // A word read only as split becomes the words it holds, each of which may match
    // alone (an incident with both still matches in full).
    let w = analyze("가용영역", &idx, Options::default());
    assert_eq!(
        w.iter().map(|w| terms_of(w)[0].clone()).collect::<Vec<_>>(),
        ["가용", "영역"]
    );
    assert!(w.iter().all(|w| w.glued.as_deref() == Some("가용영역")));
    let w = analyze("재시도증폭", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["재시도증폭", "재시도+증폭"]);
    let w = analyze("로드 밸런서", &idx, Options::default());
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(terms_of(&w[0]).contains(&"로드밸런서".to_string()));
    assert!(terms_of(&w[0]).contains(&"로드+밸런서".to_string()));
    let w = analyze("재시도 증폭", &idx, Options::default());
    assert_eq!(terms_of(&w[0])[0], "재시도증폭");
}

#[test]
fn the_whole_typing_sequence_of_a_word() {
    let idx = index(VOCAB);
    for state in ["ㅈ", "재", "잿", "재시", "재싣", "재시도"] {
        let w = analyze(state, &idx, Options { prefix_last: true });
        let t = terms_of(&w[0]);
        assert!(t.contains(&"재시도".to_string()) || state == "ㅈ", "{state}: {t:?}");
    }
    // A lone initial consonant is not a 초성 query (too short); it still completes.
    let w = analyze("재시도 ㅈ", &idx, Options { prefix_last: true });
    assert_eq!(terms_of(&w[0])[0], "재시도");
    // Without the prefix option a word cut off is only a partial match.
    let w = analyze("잿", &idx, Options::default());
    assert!(!w[0].alternatives.is_empty());
    assert!(
        w[0].alternatives.iter().all(|a| a.derivation == Derivation::Partial),
        "{w:?}"
    );
    // Completions are ranked and never repeat the word itself.
    let c = completions("재시", &idx, 5);
    assert!(c.iter().any(|(t, _)| t == "재시도") && c.iter().all(|(t, _)| t != "재시"));
}

#[test]
fn completions_read_narrow_ranges_and_find_what_the_whole_block_holds() {
    // Every term a typing state can grow into, found by reading the whole block of
    // the last syllable's initial and vowel, as the narrow ranges must also find.
    let firsts = [
        "되", "됨", "됩", "됬", "달", "닭", "닮", "닳", "재", "잿", "잭", "과", "곽", "괏",
    ];
    let seconds = [
        "", "마", "면", "며", "가", "갈", "기", "ㅁ", "ㄱ", "ㄺ", "시", "도", "스", "a",
    ];
    let mut terms: Vec<String> = Vec::new();
    for f in firsts {
        for s in seconds {
            terms.push(format!("{f}{s}"));
            terms.push(format!("가{f}{s}다"));
        }
    }
    let refs: Vec<&str> = terms.iter().map(String::as_str).collect();
    let idx = index(&refs);
    let whole_block = |word: &str| -> Vec<String> {
        let keys = crate::text::hangul::keys(word);
        let (at, last) = word.char_indices().last().unwrap();
        let (first, end) = crate::text::hangul::syllable_block(last).unwrap();
        let chars = word.chars().count() + 1;
        let mut found: Vec<String> = terms
            .iter()
            .filter(|t| {
                let rest = t.strip_prefix(&word[..at]);
                let next = rest.and_then(|r| r.chars().next());
                let head = t.char_indices().nth(chars).map_or(t.as_str(), |(at, _)| &t[..at]);
                next.is_some_and(|c| (first..=end).contains(&c))
                    && t.as_str() != word
                    && crate::text::hangul::keys(head).starts_with(&keys)
            })
            .cloned()
            .collect();
        found.sort();
        found.dedup();
        found
    };
    for word in [
        "되", "됨", "됩", "달", "닭", "닮", "재", "잿", "과", "곽", "ㄷ", "ㄱ", "가되", "가됨", "가닭", "가잿",
    ] {
        // However many blocks the ranges fill (see the next test).
        let mut got: Vec<String> = completions_within(word, &idx, 10_000, usize::MAX)
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        got.sort();
        let want = whole_block(word);
        assert!(!want.is_empty(), "{word}");
        assert_eq!(got, want, "{word}");
    }
}

#[test]
fn a_word_whose_completions_fill_many_blocks_has_none() {
    // 재 can grow into every term here (잭 too), 재시 into two. A block holds 24
    // terms at least (vocab::BLOCK_TERMS): 재 fills more blocks than a word's
    // completions may read.
    let mut terms: Vec<String> = (0..150)
        .map(|i| format!("재{}", char::from_u32(0xAC00 + i * 7).unwrap()))
        .collect();
    terms.extend(["재시도", "재시작", "잭"].map(String::from));
    let refs: Vec<&str> = terms.iter().map(String::as_str).collect();
    let idx = index(&refs);
    let wide = idx.vocab_range_blocks("재", "잭");
    assert!(wide.len() > COMPLETION_BLOCKS, "{wide:?}");
    assert!(completions("재", &idx, 10).is_empty());
    let w = analyze("재", &idx, Options { prefix_last: true });
    assert!(
        w[0].alternatives.iter().all(|a| a.derivation != Derivation::Prefix),
        "{w:?}"
    );
    // The narrow range of 재시 is read.
    let found: Vec<String> = completions("재시", &idx, 10).into_iter().map(|(t, _)| t).collect();
    assert_eq!(found, ["재시도", "재시작"]);
    // Read whole, the wide ranges hold the completions.
    assert_eq!(completions_within("재", &index(&refs), 10, usize::MAX).len(), 10);
}

#[test]
fn initial_consonants() {
    let idx = index(VOCAB);
    let w = analyze("ㅈㅅㄷ", &idx, Options::default());
    let t = terms_of(&w[0]);
    assert!(
        t.contains(&"재시도".to_string()) && t.contains(&"장소도".to_string()),
        "{t:?}"
    );
    assert!(w[0].alternatives.iter().all(|a| a.derivation == Derivation::Initials));
}

#[test]
fn typos_within_one_key() {
    let idx = index(VOCAB);
    let w = analyze("재시두", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["재시도"]);
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Typo);
    assert!(w[0].alternatives[0].weight < 1.0);
}

#[test]
fn korean_typed_with_the_english_layout() {
    let idx = index(VOCAB);
    let w = analyze("wotleh", &idx, Options::default());
    assert_eq!(w[0].keyboard.as_deref(), Some("재시도"));
    assert_eq!(terms_of(&w[0])[0], "재시도");
    // A real English word stays English.
    let w = analyze("http", &idx, Options::default());
    assert!(w[0].keyboard.is_none());
}

#[test]
fn taxonomy_synonyms_expand() {
    let idx = index(VOCAB);
    for q in ["메모리 부족", "OOM", "out of memory", "OOMKilled"] {
        let w = analyze(q, &idx, Options::default());
        assert_eq!(w.len(), 1, "{q}: {w:?}");
        assert!(
            w[0].alternatives
                .iter()
                .any(|a| a.facet.as_ref().is_some_and(|f| f.slug == "oom-killed")),
            "{q}: {w:?}"
        );
    }
}

#[test]
fn latin_and_mixed() {
    let idx = index(VOCAB);
    let w = analyze("OOMKilled HTTP 5XX us-east-1 에서", &idx, Options::default());
    assert_eq!(
        w.iter().map(|w| w.input.as_str()).collect::<Vec<_>>(),
        ["oomkilled", "http", "5xx", "us-east-1"]
    );
    let w = analyze("oom-killed", &idx, Options::default());
    assert!(terms_of(&w[0]).contains(&"oom+killed".to_string()));
}

/// An index as [`index`] gives, with a lexicon.
fn index_with_lexicon(terms: &[&str], lexicon: &[(&[&str], &[&[&str]])]) -> Index {
    let plain = index(terms);
    let mut meta = plain.meta.clone();
    let position = |t: &str| {
        (0..plain.meta.vocab.terms)
            .find(|&i| plain.term_at(i) == Some(t))
            .unwrap()
    };
    meta.lexicon = lexicon
        .iter()
        .map(|(say, means)| crate::index::LexiconEntry {
            say: say.iter().map(|s| squash(s)).collect(),
            means: means.iter().map(|m| m.iter().map(|t| position(t)).collect()).collect(),
        })
        .collect();
    Index::from_parts(meta, plain.data.clone()).unwrap()
}

#[test]
fn lexicon_forms_reach_what_records_write() {
    let idx = index_with_lexicon(
        &["github", "australia", "east", "중단", "멈추", "us-east-1"],
        &[
            (&["깃허브", "깃헙"], &[&["github"]]),
            (&["호주"], &[&["australia", "east"]]),
            (&["먹통", "뻗다"], &[&["중단"], &["멈추"]]),
            (&["북 버지니아"], &[&["us-east-1"]]),
        ],
    );
    let w = analyze("깃헙에서 호주 리전이 먹통", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["github"]);
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Lexicon);
    assert_eq!(terms_of(&w[1]), ["australia+east"]);
    assert_eq!(terms_of(&w[3]), ["중단", "멈추"]);
    // Conjugated forms reach the entry through their stem (뻗었다 → 뻗).
    let w = analyze("뻗었다", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["중단", "멈추"], "{w:?}");
    // A typed form of two words, as one phrase.
    let w = analyze("북 버지니아", &idx, Options::default());
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(terms_of(&w[0]).contains(&"us-east-1".to_string()));
    // A lexicon form typed wrong is a typo of it.
    let w = analyze("깃허부", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["github"]);
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Typo);
}

#[test]
fn the_noun_of_a_hada_verb_in_any_ending() {
    for (verb, noun) in [
        ("재시작했더니", "재시작"),
        ("배포하다가", "배포"),
        ("삭제됐는데", "삭제"),
        ("중단시켰다", "중단"),
    ] {
        assert_eq!(verb_noun(verb).as_deref(), Some(noun), "{verb}");
    }
    // Not a 시키다 ending, and too short a noun.
    assert_eq!(verb_noun("재시도"), None);
    assert_eq!(verb_noun("하다"), None);
    let idx = index(&["재시작"]);
    let w = analyze("재시작했더니", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["재시작"]);
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Bare);
}

#[test]
fn initials_of_a_lexicon_form() {
    let idx = index_with_lexicon(&["cloudflare"], &[(&["클라우드플레어"], &[&["cloudflare"]])]);
    let w = analyze("ㅋㄹㅇㄷㅍㄹㅇ", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["cloudflare"]);
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Initials);
}

#[test]
fn a_phrase_is_never_read_through_a_particle_rule_across_words() {
    // `db 자동` is not `db` with the particle 자동.
    let idx = index(&["db", "자동"]);
    let w = analyze("db 자동", &idx, Options::default());
    assert_eq!(w.len(), 2, "{w:?}");
}

#[test]
fn latin_typos_by_length_and_swapped_letters() {
    let idx = index(&["iptables", "certificate", "orbiter", "capital", "dns"]);
    for (typed, meant) in [
        ("iptalbes", "iptables"),
        ("certifcate", "certificate"),
        ("orbitor", "orbiter"),
        ("captial", "capital"),
    ] {
        let w = analyze(typed, &idx, Options::default());
        assert_eq!(terms_of(&w[0]), [meant], "{typed}");
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Typo);
    }
    // Short words get no typo reading: `dnz` is not `dns`.
    assert!(analyze("dnz", &idx, Options::default())[0].alternatives.is_empty());
}

#[test]
fn two_key_typos_in_long_hangul_words() {
    let idx = index(&["클라우드플레어", "쿠버네티스"]);
    let w = analyze("클라우드플래어", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["클라우드플레어"]);
    let w = analyze("크라우드플래어", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["클라우드플레어"], "two keys off");
    let w = analyze("쿠버내티스", &idx, Options::default());
    assert_eq!(terms_of(&w[0]), ["쿠버네티스"]);
}

#[test]
fn partial_readings_of_words_the_vocabulary_lacks() {
    let idx = index(&["정전", "지우", "먹통", "제한", "certificate"]);
    for (typed, meant) in [("대정전", "정전"), ("지워버렸다", "지우"), ("certif", "certificate")] {
        let w = analyze(typed, &idx, Options::default());
        assert!(terms_of(&w[0]).contains(&meant.to_string()), "{typed}: {w:?}");
        assert!(w[0]
            .alternatives
            .iter()
            .all(|a| a.derivation == Derivation::Partial && a.weight <= PARTIAL_WEIGHT));
    }
    // A word the vocabulary has needs no partial reading.
    let w = analyze("먹통이", &idx, Options::default());
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Bare);
}

#[test]
fn query_stopwords_are_dropped_but_phrases_are_read_first() {
    let idx = index(&["재시도", "장애", "조치"]);
    let w = analyze("재시도 장애 사례", &idx, Options::default());
    assert_eq!(w.iter().map(|w| w.input.as_str()).collect::<Vec<_>>(), ["재시도"]);
    let w = analyze("장애 조치", &idx, Options::default());
    assert!(w.iter().any(|w| w.input == "조치"), "{w:?}");
}

#[test]
fn long_queries_are_cut() {
    let idx = index(VOCAB);
    let long = "재시도 ".repeat(10) + &(0..100).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
    assert!(analyze(&long, &idx, Options::default()).len() <= MAX_WORDS);
    let word: String = "가".repeat(100_000);
    let started = std::time::Instant::now();
    let w = analyze(&word, &idx, Options::default());
    assert!(w[0].input.chars().count() <= MAX_WORD_CHARS);
    // Not a timing test: the point is that it returns at all on a 100 KB word.
    let _ = started.elapsed();
}

#[test]
fn unknown_words_have_no_alternative() {
    let idx = index(VOCAB);
    assert!(analyze("없는말", &idx, Options::default())[0].alternatives.is_empty());
}

fn inputs(words: &[Word]) -> Vec<String> {
    words.iter().map(|w| w.input.clone()).collect()
}

#[test]
fn words_typed_without_spaces_read_as_spaced() {
    let idx = index(VOCAB);
    let spaced = analyze("캐시를 비우는 배포", &idx, Options::default());
    let glued = analyze("캐시를비우는배포", &idx, Options::default());
    assert_eq!(inputs(&glued), inputs(&spaced));
    assert_eq!(
        glued.iter().map(terms_of).collect::<Vec<_>>(),
        spaced.iter().map(terms_of).collect::<Vec<_>>()
    );
    assert!(glued.iter().all(|w| w.glued.as_deref() == Some("캐시를비우는배포")));
    assert!(spaced.iter().all(|w| w.glued.is_none()));
    // Where Hangul meets Latin, and after a number's counter.
    assert_eq!(
        inputs(&analyze("HTTP5xx메모리부족", &idx, Options::default())),
        ["http", "5xx", "메모리부족"]
    );
    assert_eq!(
        inputs(&analyze("us-east-1재시도를", &idx, Options::default())),
        ["us-east-1", "재시도를"]
    );
    // Latin words run together: every piece a term of three letters or more.
    let w = analyze("oomkilledhttp", &idx, Options::default());
    assert_eq!(inputs(&w), ["oomkilled", "http"]);
}

#[test]
fn a_word_is_not_broken_into_fragments() {
    let idx = index(&["비우", "서", "재시도", "배포", "캐시"]);
    // Three syllables split only into terms as they are: 비면서 is not 비면 + 서.
    assert_eq!(inputs(&analyze("비면서", &idx, Options::default())), ["비면서"]);
    // A short word read by a typo keeps the typo.
    let w = analyze("재시두", &idx, Options::default());
    assert_eq!(inputs(&w), ["재시두"]);
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Typo);
    // A single unknown syllable is never a word of its own.
    assert_eq!(inputs(&analyze("캐시뷁", &idx, Options::default())), ["캐시뷁"]);
}

#[test]
fn initials_and_a_negation_typed_together() {
    let idx = index(VOCAB);
    let w = analyze("ㅈㅅㄷㅂㅍ", &idx, Options::default());
    assert_eq!(inputs(&w), ["ㅈㅅㄷ", "ㅂㅍ"]);
    assert!(terms_of(&w[0]).contains(&"재시도".to_string()), "{w:?}");
    assert_eq!(terms_of(&w[1]), ["배포"]);
    // 안 is dropped as it would be spaced; the verb stays.
    assert_eq!(inputs(&analyze("안비우는", &idx, Options::default())), ["비우는"]);
}

#[test]
fn an_acronym_spelled_in_hangul_reads_as_its_letters() {
    let idx = index(&["dns", "에스", "레코드", "http"]);
    let w = analyze("디엔에스가 에이치티티피", &idx, Options::default());
    // The word's pieces (에스) are no reading of it once its letters are.
    assert_eq!(terms_of(&w[0]), ["dns"]);
    assert_eq!(w[0].alternatives[0].derivation, Derivation::Lexicon);
    assert_eq!(terms_of(&w[1]), ["http"]);
    // A word that is a term keeps its own reading only.
    let idx = index(&["이유", "eu"]);
    assert_eq!(terms_of(&analyze("이유", &idx, Options::default())[0]), ["이유"]);
}
