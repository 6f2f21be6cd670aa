//! The local judge's answer to agenteval's rubric-generation prompt (`rubric_generation/v1`): a
//! rubric derived from the request's own text, so tests and demos get a usable, predictable one.
//! Each sentence or clause of the agent's instructions (or, without them, its system prompt or
//! references) becomes a dimension, weighted by its place, then `general_quality`, always
//! applicable.

use serde_json::{json, Value};

/// The system message's mark of the prompt.
const MARK: &str = "Prompt: agenteval rubric_generation/";

/// Whether `system` is the rubric-generation prompt.
pub(crate) fn asks(system: &str) -> bool {
    system.contains(MARK)
}

/// The reply object: `{"dimensions": [...]}` from the fenced sections in `user`.
pub(crate) fn rubric(user: &str) -> Value {
    let source = ["AGENT_INSTRUCTIONS", "SYSTEM_PROMPT", "REFERENCES"]
        .iter()
        .map(|name| section(user, name))
        .find(|text| !text.trim().is_empty())
        .unwrap_or_default();
    let mut dimensions: Vec<Value> = Vec::new();
    for clause in source.split(['.', ';', '\n']).map(str::trim) {
        let words: Vec<String> = clause
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect();
        if words.len() < 2 || dimensions.len() == 7 {
            continue;
        }
        let id = words.iter().take(3).cloned().collect::<Vec<_>>().join("_");
        if dimensions
            .iter()
            .any(|dimension| dimension["id"] == id.as_str())
        {
            continue;
        }
        let weight = 10_i64
            .saturating_sub(i64::try_from(dimensions.len()).unwrap_or(9))
            .max(1);
        dimensions.push(json!({
            "id": id,
            "description": format!("The response follows this instruction: {clause}."),
            "weight": weight,
            "always_applicable": false,
            "category": "policy"
        }));
    }
    dimensions.push(json!({
        "id": "general_quality",
        "description": "Other important quality factors not already covered by the listed criteria.",
        "weight": 2,
        "always_applicable": true,
        "category": "quality"
    }));
    json!({ "dimensions": dimensions })
}

/// The text between `<<<NAME …` and `… NAME>>>` in `user`, or empty.
fn section(user: &str, name: &str) -> String {
    let open = format!("<<<{name} ");
    let close = format!(" {name}>>>");
    let mut inside = false;
    let mut lines = Vec::new();
    for line in user.lines() {
        if line.starts_with(&open) {
            inside = true;
        } else if inside && line.ends_with(&close) {
            break;
        } else if inside {
            lines.push(line);
        }
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_instruction_becomes_a_dimension_then_general_quality() {
        let user = "<<<AGENT_INSTRUCTIONS n1\nBook tables for guests. Dinner is served 17:00-22:00; at most 8 guests per table.\nn1 AGENT_INSTRUCTIONS>>>\n<<<TRACES n1\nuser: hi\nn1 TRACES>>>";
        let rubric = rubric(user);
        let ids: Vec<&str> = rubric["dimensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|dimension| dimension["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            ids,
            [
                "book_tables_for",
                "dinner_is_served",
                "at_most_8",
                "general_quality"
            ]
        );
        assert_eq!(rubric["dimensions"][0]["weight"], 10);
        assert_eq!(rubric["dimensions"][3]["always_applicable"], true);
        assert!(asks("…\nPrompt: agenteval rubric_generation/v1"));
    }
}
