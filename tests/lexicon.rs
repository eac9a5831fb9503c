//! The domain lexicon (`data/lexicon.toml`): every entry is reachable, meaning its
//! words are words of the records, and every entry earns its bytes: one of its typed
//! forms gives another result with the entry than without it.

mod common;

use incident_core::index::Index;
use incident_core::search::{search, Request};

fn ranking(index: &Index, q: &str) -> Vec<(String, bool, f64)> {
    let r = search(
        index,
        &Request {
            query: q.into(),
            per_page: 20,
            ..Default::default()
        },
    )
    .unwrap();
    r.hits.into_iter().map(|h| (h.id, h.full, h.score)).collect()
}

#[test]
fn every_entry_changes_the_result_of_its_own_query() {
    let dir = common::shipped_bundle();
    let index = incident_build::open::load_index(&dir.path().join("dist")).unwrap();
    let corpus = incident_build::corpus::load(&common::repo().join("data")).unwrap();
    assert_eq!(corpus.lexicon.len(), index.meta.lexicon.len());
    assert!(
        corpus.lexicon.len() >= 200,
        "the shipped lexicon has {} entries",
        corpus.lexicon.len()
    );
    let mut idle = Vec::new();
    for (e, entry) in corpus.lexicon.iter().enumerate() {
        let mut meta = index.meta.clone();
        meta.lexicon.remove(e);
        let without = Index::from_parts(meta, index.data.clone()).unwrap();
        let changes = entry.say.iter().any(|q| {
            let with_it = ranking(&index, q);
            !with_it.is_empty() && with_it != ranking(&without, q)
        });
        if !changes {
            idle.push(format!("line {}: {:?}", entry.line, entry.say));
        }
    }
    assert!(
        idle.is_empty(),
        "{} entries change nothing (their forms are already words of the records or taxonomy names):\n{}",
        idle.len(),
        idle.join("\n")
    );
}

#[test]
fn check_refuses_a_word_no_record_has() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    common::one_record_corpus(&data);
    std::fs::write(
        data.join("lexicon.toml"),
        "[[entry]]\nkind = \"colloquial\"\nsay = [\"날아가다\"]\nmeans = [\"사라졌다\"]\n\n[[entry]]\nkind = \"name\"\nsay = [\"깃허브\"]\nmeans = [\"GitHub\"]\n\n[[entry]]\nkind = \"slang\"\nsay = [\"날아가다\"]\nmeans = []\n",
    )
    .unwrap();
    let check = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_incident-library"))
            .args(["check", "--data"])
            .arg(&data)
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let stderr = check();
    let lexicon = data.join("lexicon.toml");
    let at = |line: usize| format!("{}:{line}:", lexicon.display());
    // The shape first: an unknown kind, an empty means, a repeated form.
    assert!(
        stderr.contains(&format!("{} `kind`: unknown kind \"slang\"", at(11))),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("{} `means`", at(11))), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{} `say`: \"날아가다\" is also a typed form of the entry at line 1",
            at(11)
        )),
        "{stderr}"
    );

    // With the shape right, a word that no record has is named with its line.
    std::fs::write(
        &lexicon,
        "[[entry]]\nkind = \"colloquial\"\nsay = [\"날아가다\"]\nmeans = [\"사라졌다\"]\n\n[[entry]]\nkind = \"name\"\nsay = [\"깃허브\"]\nmeans = [\"GitHub\"]\n",
    )
    .unwrap();
    let stderr = check();
    assert!(
        stderr.contains(&format!("{} `means`: \"GitHub\" is not a word of any record", at(6))),
        "{stderr}"
    );
    assert!(!stderr.contains(&at(1)), "the first entry is fine: {stderr}");
}
