//! Native search: ranking on the seed incidents, disjunctive facet counts on a
//! fixture, and the CLI's JSON.

mod common;

use std::path::Path;
use std::process::Command;

use incident_core::search::{search, Request, SearchError, Sort};

fn cli_json(bundle: &Path, args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["search", "--json", "--bundle"])
        .arg(bundle)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

use common::shipped_bundle;

/// Builds the corpus in `data` into `<dir>/dist` and loads its index.
fn build_index(data: &Path, dir: &Path) -> incident_core::index::Index {
    let dist = dir.join("dist");
    incident_build::bundle::build(data, &dist, common::analyzer(), &Default::default(), |_, _| {}).unwrap();
    incident_build::open::load_index(&dist).unwrap()
}

fn first_hit_title(json: &serde_json::Value) -> String {
    json["hits"][0]["title"].as_str().unwrap_or_default().to_string()
}

#[test]
fn seed_queries_rank_the_right_incident_first() {
    let dir = shipped_bundle();
    let bundle = dir.path().join("dist");

    // Several records are about retries that multiplied; the seed incident is one of
    // them, and every hit of the first page is found through 재시도.
    let json = cli_json(&bundle, &["재시도를"]);
    assert!(first_hit_title(&json).contains("재시도"), "{json:#}");
    let page: Vec<&serde_json::Value> = json["hits"].as_array().unwrap().iter().collect();
    assert!(
        page.iter()
            .any(|h| h["date"] == "2026-05-29" && h["title"].as_str().unwrap().contains("Azure OpenAI")),
        "{json:#}"
    );
    assert!(page.iter().all(|h| h["matched"][0]["via"] == "재시도"), "{json:#}");

    let json = cli_json(&bundle, &["캐시를 비우는 배포"]);
    assert!(first_hit_title(&json).contains("Sweden Central"), "{json:#}");

    let json = cli_json(&bundle, &["냉각기"]);
    assert!(first_hit_title(&json).contains("Australia East"), "{json:#}");

    // The JSON shape other tools read.
    for key in ["total", "hits", "facets"] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
    for key in ["id", "score", "title", "org", "date"] {
        assert!(json["hits"][0].get(key).is_some(), "hit.{key} missing");
    }
}

#[test]
fn particles_and_endings_find_the_same_incidents() {
    let dir = shipped_bundle();
    let index = incident_build::open::load_index(&dir.path().join("dist")).unwrap();
    let ids = |q: &str| {
        let r = search(
            &index,
            &Request {
                query: q.into(),
                ..Default::default()
            },
        )
        .unwrap();
        r.hits.into_iter().map(|h| h.id).collect::<Vec<_>>()
    };
    let base = ids("재시도");
    assert!(!base.is_empty());
    for q in ["재시도를", "재시도가", "재시도는", "재시도의"] {
        assert_eq!(ids(q), base, "{q}");
    }
    assert_eq!(ids("캐시를"), ids("캐시"));
    assert_eq!(ids("배포했다"), ids("배포"));
    assert!(ids("없는낱말").is_empty(), "a word that matches nothing finds nothing");
}

/// Six fixture incidents over two orgs, two causes and two components.
fn fixture() -> (tempfile::TempDir, incident_core::index::Index) {
    use common::Rec;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let recs = [
        Rec {
            id: "IL-0001",
            title: "엣지 설정 변경으로 CDN 이 멈췄다",
            org: "example-cloud",
            date: "2024-01-01",
            causes: &["config-change"],
            components: &["cdn-edge"],
            symptoms: &["service-outage"],
            body: "설정 변경이 엣지를 멈췄다.",
        },
        Rec {
            id: "IL-0002",
            title: "DNS 설정 변경이 이름 해석을 막았다",
            org: "example-cloud",
            date: "2024-02-01",
            causes: &["config-change"],
            components: &["dns"],
            symptoms: &["service-outage"],
            body: "레코드가 사라졌다.",
        },
        Rec {
            id: "IL-0003",
            title: "재시도 증폭이 DNS 서버를 눌렀다",
            org: "other-cloud",
            date: "2024-03-01",
            causes: &["retry-amplification"],
            components: &["dns"],
            symptoms: &["oom-killed"],
            body: "재시도가 불어났다.",
        },
        Rec {
            id: "IL-0004",
            title: "재시도 폭주로 엣지 서버가 메모리를 다 썼다",
            org: "other-cloud",
            date: "2024-04-01",
            causes: &["retry-amplification"],
            components: &["cdn-edge"],
            symptoms: &["oom-killed", "service-outage"],
            body: "재시도가 엣지를 눌렀다.",
        },
        Rec {
            id: "IL-0005",
            title: "설정 변경과 재시도가 겹쳐 CDN 이 멈췄다",
            org: "example-cloud",
            date: "2024-05-01",
            causes: &["config-change", "retry-amplification"],
            components: &["cdn-edge"],
            symptoms: &["service-outage"],
            body: "두 원인이 겹쳤다.",
        },
        Rec {
            id: "IL-0006",
            title: "DNS 레코드 배포가 늦어졌다",
            org: "other-cloud",
            date: "2024-06-01",
            causes: &["config-change"],
            components: &["dns"],
            symptoms: &["service-outage"],
            body: "배포가 늦었다.",
        },
    ];
    common::write_corpus(&data, &recs);
    let index = build_index(&data, dir.path());
    (dir, index)
}

fn counts(r: &incident_core::search::Response, facet: &str) -> Vec<(String, usize)> {
    r.facets[facet].iter().map(|c| (c.slug.clone(), c.count)).collect()
}

fn pairs(items: &[(&str, usize)]) -> Vec<(String, usize)> {
    items.iter().map(|(s, n)| (s.to_string(), *n)).collect()
}

#[test]
fn disjunctive_facet_counts() {
    let (_dir, index) = fixture();
    let run = |query: &str, filters: &[(&str, &str)]| {
        search(
            &index,
            &Request {
                query: query.into(),
                filters: filters.iter().map(|(f, v)| (f.to_string(), v.to_string())).collect(),
                ..Default::default()
            },
        )
        .unwrap()
    };

    // Nothing chosen: plain counts, newest first.
    let r = run("", &[]);
    assert_eq!(r.total, 6);
    assert_eq!(r.sort, Sort::Recent);
    assert_eq!(
        r.hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
        ["IL-0006", "IL-0005", "IL-0004", "IL-0003", "IL-0002", "IL-0001"]
    );
    assert_eq!(
        counts(&r, "cause"),
        pairs(&[("retry-amplification", 3), ("config-change", 4)])
    );

    // One component: other facets count within it; its own facet ignores it.
    let r = run("", &[("component", "dns")]);
    assert_eq!(r.total, 3);
    assert_eq!(counts(&r, "component"), pairs(&[("cdn-edge", 3), ("dns", 3)]));
    assert_eq!(counts(&r, "org"), pairs(&[("example-cloud", 1), ("other-cloud", 2)]));
    assert_eq!(
        counts(&r, "cause"),
        pairs(&[("retry-amplification", 1), ("config-change", 2)])
    );

    // OR within a facet, AND across facets.
    let r = run(
        "",
        &[("component", "dns"), ("component", "cdn-edge"), ("org", "other-cloud")],
    );
    assert_eq!(
        r.hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
        ["IL-0006", "IL-0004", "IL-0003"]
    );
    assert_eq!(counts(&r, "org"), pairs(&[("example-cloud", 3), ("other-cloud", 3)]));
    assert_eq!(counts(&r, "component"), pairs(&[("cdn-edge", 1), ("dns", 2)]));
    assert!(
        r.facets["org"]
            .iter()
            .find(|c| c.slug == "other-cloud")
            .unwrap()
            .selected
    );

    // With a query the counts cover only matching incidents.
    let r = run("재시도", &[("org", "example-cloud")]);
    assert_eq!(r.hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["IL-0005"]);
    assert_eq!(r.sort, Sort::Relevance);
    assert_eq!(counts(&r, "org"), pairs(&[("example-cloud", 1), ("other-cloud", 2)]));
}

#[test]
fn ranking_prefers_title_then_recency_and_pages() {
    let (_dir, index) = fixture();
    // 재시도 is in the titles of 3, 4 and 5 (and the body of 3 and 4).
    let r = search(
        &index,
        &Request {
            query: "재시도".into(),
            ..Default::default()
        },
    )
    .unwrap();
    let ids: Vec<&str> = r.hits.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids.len(), 3);
    assert!(r.hits.windows(2).all(|w| w[0].score >= w[1].score));
    // Equal scores: the more recent first.
    let r2 = search(
        &index,
        &Request {
            query: "배포".into(),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(r2.hits[0].id, "IL-0006");

    // Paging.
    let p = |page| {
        search(
            &index,
            &Request {
                page,
                per_page: 4,
                ..Default::default()
            },
        )
        .unwrap()
    };
    assert_eq!(p(1).hits.len(), 4);
    assert_eq!(
        p(2).hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
        ["IL-0002", "IL-0001"]
    );
    assert!(p(3).hits.is_empty());
    assert_eq!(p(3).total, 6);
}

#[test]
fn unknown_filters_are_refused_with_choices() {
    let (_dir, index) = fixture();
    let err = search(
        &index,
        &Request {
            filters: vec![("component".into(), "cdn".into())],
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(&err, SearchError::UnknownValue { suggestions, .. } if suggestions.contains(&"cdn-edge".to_string())),
        "{err}"
    );
    let err = search(
        &index,
        &Request {
            filters: vec![("team".into(), "x".into())],
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("cause, component, symptom, factor, org"),
        "{err}"
    );
}

#[test]
fn cli_filters_sort_and_paging() {
    let (dir, _) = fixture();
    let bundle = dir.path().join("dist");
    let json = cli_json(
        &bundle,
        &[
            "--filter",
            "component=dns",
            "--filter",
            "org=other-cloud",
            "--limit",
            "1",
            "--page",
            "2",
        ],
    );
    assert_eq!(json["total"], 2);
    assert_eq!(json["hits"][0]["id"], "IL-0003");
    let json = cli_json(&bundle, &["재시도", "--sort", "recent"]);
    assert_eq!(json["hits"][0]["id"], "IL-0005");
    let out = Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["search", "--filter", "component", "--bundle"])
        .arg(&bundle)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected FACET=SLUG"));
}

fn query(index: &incident_core::index::Index, q: &str) -> incident_core::search::Response {
    search(
        index,
        &Request {
            query: q.into(),
            ..Default::default()
        },
    )
    .unwrap()
}

#[test]
fn ranked_retrieval_puts_full_matches_first_and_says_what_is_missing() {
    let (_dir, index) = fixture();
    // 재시도 is in 3, 4 and 5; DNS in 2, 3 and 6: any word makes a hit, both make a
    // full match, and the one full match comes first.
    let r = query(&index, "재시도 DNS");
    assert_eq!(r.total, 5);
    assert_eq!(r.full, 1);
    assert_eq!(r.hits[0].id, "IL-0003");
    assert!(r.hits[0].full && r.hits[0].missing.is_empty());
    assert_eq!(r.hits[0].matched.len(), 2);
    for h in &r.hits[1..] {
        assert!(!h.full);
        assert_eq!(h.missing.len(), 1, "{h:?}");
        assert_eq!(h.matched.len(), 1, "{h:?}");
    }
    // Within the full and the partial group, scores fall.
    assert!(r.hits[1..].windows(2).all(|w| w[0].score >= w[1].score));

    // A word the library does not have: nothing is a full match, and every hit
    // names it as missing.
    let r = query(&index, "재시도 없는낱말");
    assert_eq!(r.full, 0);
    assert_eq!(r.total, 3);
    assert!(r.hits.iter().all(|h| !h.full && h.missing == ["없는낱말"]));

    // How each word matched.
    let r = query(&index, "재시도를");
    assert_eq!(r.hits[0].matched[0].how, "stem");
    assert_eq!(r.hits[0].matched[0].via, "재시도");
    let r = query(&index, "재시도");
    assert_eq!(r.hits[0].matched[0].how, "exact");
}

#[test]
fn a_term_found_only_inside_a_longer_word_ranks_below_the_word_itself() {
    use common::Rec;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let rec = |id, title, body| Rec {
        id,
        title,
        org: "example-cloud",
        date: "2024-01-01",
        causes: &["config-change"],
        components: &["dns"],
        symptoms: &["service-outage"],
        body,
    };
    // IL-0001 has 중단 only inside 무중단 (the prefix 무 + 중단), twice; IL-0002 says
    // 중단 once, as a word; IL-0004 says 인증서, which a particle rule could misread
    // as 인증 + 서.
    common::write_corpus(
        &data,
        &[
            rec(
                "IL-0001",
                "설정 변경이 있었다",
                "무중단 배포를 했다. 무중단 전환이었다.",
            ),
            rec("IL-0002", "설정 변경이 있었다", "서비스가 중단됐다."),
            rec("IL-0003", "설정 변경이 있었다", "사용자 인증이 실패했다."),
            rec("IL-0004", "설정 변경이 있었다", "인증서가 만료됐다."),
        ],
    );
    let index = build_index(&data, dir.path());
    let ids = |q| query(&index, q).hits.into_iter().map(|h| h.id).collect::<Vec<_>>();
    assert_eq!(ids("중단"), ["IL-0002", "IL-0001"]);
    // 인증서 is a word of the vocabulary: its record comes first, the record with 인증
    // (the reading without 서) after it.
    assert_eq!(ids("인증서"), ["IL-0004", "IL-0003"]);
}

#[test]
fn everyday_words_name_the_right_taxonomy_value() {
    let dir = shipped_bundle();
    let index = incident_build::open::load_index(&dir.path().join("dist")).unwrap();
    let cases = [
        ("배포", "faulty-deployment"),
        ("deploy", "faulty-deployment"),
        ("rollout", "faulty-deployment"),
        ("인증서", "certificate-expiry"),
        ("SSL", "certificate-expiry"),
        ("TLS", "certificate-expiry"),
        ("x509", "certificate-expiry"),
        ("페일오버", "failover-malfunction"),
        ("failover", "failover-malfunction"),
        ("설정 오류", "config-change"),
        ("설정 실수", "config-change"),
        ("rate limit", "internal-traffic-unthrottled"),
        ("throttling", "internal-traffic-unthrottled"),
        ("스로틀링", "internal-traffic-unthrottled"),
        ("디도스", "ddos-attack"),
        ("메모리 릭", "memory-leak"),
        ("hijack", "bgp-routing-error"),
        ("Route 53", "dns"),
        ("rollback", "rollback-difficulty"),
    ];
    for (q, slug) in cases {
        let words = incident_core::query::analyze(q, &index, Default::default());
        assert_eq!(words.len(), 1, "{q}: {words:?}");
        assert!(
            words[0]
                .alternatives
                .iter()
                .any(|a| a.facet.as_ref().is_some_and(|f| f.slug == slug)),
            "{q} should name {slug}: {:?}",
            words[0].alternatives
        );
        assert!(!query(&index, q).hits.is_empty(), "{q} finds nothing");
    }
}

#[test]
fn a_query_of_no_word_finds_nothing_but_a_query_of_stopwords_lists_everything() {
    let (_dir, index) = fixture();
    for q in [".*", "!!!", "😀", "— … ·"] {
        let r = query(&index, q);
        assert!(r.unsearchable, "{q}");
        assert_eq!((r.total, r.hits.len()), (0, 0), "{q}");
    }
    let r = query(&index, "장애 사례");
    assert!(!r.unsearchable);
    assert_eq!(r.total, 6);
    let r = query(&index, "");
    assert!(!r.unsearchable);
    assert_eq!(r.total, 6);
}

#[test]
fn a_long_query_is_cut_and_says_so() {
    let (_dir, index) = fixture();
    assert!(!query(&index, "재시도 DNS").cut);
    let many = (0..40).map(|i| format!("낱말{i}")).collect::<Vec<_>>().join(" ") + " 재시도";
    let r = query(&index, &many);
    assert!(r.cut);
    let long = format!("재시도 {}", "가".repeat(100_000));
    let r = query(&index, &long);
    assert!(r.cut);
    assert_eq!(r.hits[0].matched[0].via, "재시도");
}

#[test]
fn explain_gives_each_matched_word_its_share_of_the_score() {
    let dir = shipped_bundle();
    let bundle = dir.path().join("dist");
    for query in [
        "재시도를 너무 많이 한 로드밸런서",
        "certificate expired 인증서",
        "카카오 데이터센터 화재",
    ] {
        let plain = cli_json(&bundle, &[query]);
        let explained = cli_json(&bundle, &["--explain", query]);
        // The same hits in the same order; the shares only when asked.
        let ids = |v: &serde_json::Value| -> Vec<String> {
            v["hits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["id"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(ids(&plain), ids(&explained), "{query}");
        for h in plain["hits"].as_array().unwrap() {
            assert!(
                h["matched"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|m| m.get("score").is_none()),
                "{query}"
            );
        }
        for h in explained["hits"].as_array().unwrap() {
            let shares: f64 = h["matched"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["score"].as_f64().unwrap())
                .sum();
            let score = h["score"].as_f64().unwrap();
            assert!(
                (shares - score).abs() < 0.002 * h["matched"].as_array().unwrap().len() as f64,
                "{query}: {shares} vs {score}"
            );
        }
    }
    // The text output says it too.
    let out = Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["search", "--explain", "--limit", "1", "--bundle"])
        .arg(&bundle)
        .arg("재시도를")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("= ") && text.contains("재시도를 (stem 재시도)"), "{text}");
}
