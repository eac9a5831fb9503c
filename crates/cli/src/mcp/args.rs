//! Reading the arguments of a tool call: typed values with messages that say what
//! was expected.

use serde_json::{Map, Value};

/// The string argument `key`, if given.
pub(super) fn string_arg(args: &Map<String, Value>, key: &str) -> std::result::Result<Option<String>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{key} must be a string")),
    }
}

/// The `filters` argument as (facet, slug) pairs. Which facets and slugs exist is
/// the search's to say: its errors name the valid ones and the closest slugs.
pub(super) fn filters_arg(args: &Map<String, Value>) -> std::result::Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let Some(value) = args.get("filters").filter(|v| !v.is_null()) else {
        return Ok(out);
    };
    let object = value
        .as_object()
        .ok_or("filters must be an object such as {\"component\": [\"cdn-edge\"]}")?;
    for (facet, slugs) in object {
        let slugs: Vec<&str> = match slugs {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a
                .iter()
                .map(|v| v.as_str().ok_or(format!("filters.{facet} must hold slugs (strings)")))
                .collect::<std::result::Result<_, _>>()?,
            _ => return Err(format!("filters.{facet} must be a list of slugs")),
        };
        out.extend(slugs.into_iter().map(|slug| (facet.clone(), slug.to_string())));
    }
    Ok(out)
}
