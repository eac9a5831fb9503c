//! The words a search drops: too common and too empty in any text, or saying
//! nothing in a query to a library of incidents.

/// Words too common and too empty to search by: dependent nouns, the stems of
/// 있다/없다/하다/되다 and the like, and English function words. The indexer drops
/// them and so does the query, so `있는 장애` searches for 장애.
pub const STOPWORDS: &[&str] = &[
    "있", "없", "않", "하", "되", "수", "것", "등", "및", "그", "이", "저", "때", "더", "뒤", "못", "같", "때문", "위",
    "중", "후", "전", "a", "an", "and", "as", "at", "by", "for", "from", "in", "is", "of", "on", "or", "the", "to",
    "with",
];

/// Words that say nothing in a query to a library of incidents, though records may
/// use them: the library's own subject (장애, 사고, 사례, outage), words for a time
/// or a matter, and adverbs of degree and manner. The query drops them (after
/// reading phrases, so `장애 조치` stays), and a query of nothing else lists
/// everything; the index keeps them.
pub const QUERY_STOPWORDS: &[&str] = &[
    "안",
    "장애",
    "사고",
    "사례",
    "사건",
    "문제",
    "이슈",
    "경우",
    "상황",
    "현상",
    "건",
    "날",
    "적",
    "일",
    "거",
    "걸",
    "제대로",
    "같이",
    "함께",
    "다시",
    "계속",
    "모두",
    "전부",
    "그냥",
    "너무",
    "아주",
    "매우",
    "갑자기",
    "결국",
    "완전히",
    "전혀",
    "정말",
    "진짜",
    "좀",
    "왕창",
    "엄청",
    "한꺼번에",
    "줄줄이",
    "통째로",
    "또",
    "이미",
    "아직",
    "바로",
    "어떻게",
    "왜",
    "뭐",
    "무슨",
    "어떤",
    "어느",
    "incident",
    "incidents",
    "outage",
    "outages",
    "issue",
    "issues",
    "problem",
    "problems",
    "postmortem",
    "case",
    "cases",
];

/// True for a [`STOPWORDS`] or [`QUERY_STOPWORDS`] entry: a query word to drop.
pub fn is_query_stopword(term: &str) -> bool {
    is_stopword(term) || QUERY_STOPWORDS.contains(&term)
}

/// True for a [`STOPWORDS`] entry.
pub fn is_stopword(term: &str) -> bool {
    STOPWORDS.contains(&term)
}
