use super::Sort;

#[test]
fn sort_is_read_from_its_name() {
    assert_eq!("relevance".parse::<Sort>(), Ok(Sort::Relevance));
    assert_eq!("recent".parse::<Sort>(), Ok(Sort::Recent));
    assert_eq!(
        "best".parse::<Sort>(),
        Err("unknown sort \"best\"; use relevance or recent".to_string())
    );
    // Names are exact: no other case, no spaces.
    assert!("Recent".parse::<Sort>().is_err());
    assert!(" recent".parse::<Sort>().is_err());
}
