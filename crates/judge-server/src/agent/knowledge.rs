//! The demo agent's knowledge: a few topics matching the project's examples (the HR questions of
//! `examples/m365-demo.json` and `examples/copilot-studio-import.csv`, the general questions of
//! `examples/foundry-demo.jsonl`), each with its answer in parts, its sources and the tool it
//! uses, and how a prompt finds its topic (keywords, else the conversation's last topic for a
//! follow-up, else a fallback). Deterministic: the same prompt in the same state, the same answer.

use serde_json::{json, Value};

/// A source an answer cites with `[N]` (N its position in the answer's citations, from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Source {
    pub(crate) title: &'static str,
    pub(crate) url: &'static str,
    /// The passage the answer comes from.
    pub(crate) extract: &'static str,
}

/// A tool the agent calls for a topic, and the output it gets when it runs the tool itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tool {
    pub(crate) name: &'static str,
    /// The call's arguments, a JSON object as text.
    pub(crate) arguments: &'static str,
    pub(crate) output: &'static str,
}

/// The placeholder in a topic's answer for its tool's output.
const TOOL_OUTPUT: &str = "{tool}";

struct Topic {
    /// Words or phrases of a prompt about it (a single word also matches a word starting with
    /// it: `park` matches `parking`).
    keywords: &'static [&'static str],
    /// The answer's paragraphs, sent as separate messages where the protocol allows.
    parts: &'static [&'static str],
    /// The answer to a follow-up (a prompt on this topic again, or without keywords, after this
    /// topic's answer).
    follow_up: &'static str,
    sources: &'static [Source],
    tool: Option<Tool>,
}

const VACATION_POLICY: Source = Source {
    title: "Vacation policy",
    url: "https://contoso.sharepoint.com/sites/hr/Shared%20Documents/vacation-policy.docx",
    extract: "Employees in their first five years get 20 vacation days per year, accrued monthly.",
};
const PARENTAL_POLICY: Source = Source {
    title: "Parental leave policy",
    url: "https://contoso.sharepoint.com/sites/hr/Shared%20Documents/parental-leave.docx",
    extract: "Parents get 16 weeks of paid leave after a birth, an adoption or a foster placement.",
};
const PAYROLL_GUIDE: Source = Source {
    title: "Payroll portal guide",
    url: "https://contoso.sharepoint.com/sites/finance/SitePages/payroll-portal.aspx",
    extract: "Sign in to the payroll portal with your employee number and the portal code.",
};
const TRAVEL_POLICY: Source = Source {
    title: "Travel policy",
    url: "https://contoso.sharepoint.com/sites/finance/Shared%20Documents/travel-policy.pdf",
    extract: "Flights under 6 hours are booked in economy class.",
};
const EXPENSE_POLICY: Source = Source {
    title: "Expense policy",
    url: "https://contoso.sharepoint.com/sites/finance/Shared%20Documents/expense-policy.pdf",
    extract: "Attach a receipt to every expense above $25.",
};
const BENEFITS_GUIDE: Source = Source {
    title: "Benefits overview",
    url: "https://contoso.sharepoint.com/sites/hr/SitePages/benefits.aspx",
    extract: "Enrol in and change your benefits in BenefitsHub.",
};
const ONBOARDING_CHECKLIST: Source = Source {
    title: "New starter checklist",
    url: "https://contoso.sharepoint.com/sites/hr/Shared%20Documents/new-starter-checklist.docx",
    extract: "On your first day bring a photo ID and your signed offer letter.",
};
const CAMPUS_GUIDE: Source = Source {
    title: "Campus guide",
    url: "https://contoso.sharepoint.com/sites/facilities/SitePages/campus-guide.aspx",
    extract: "Visitor parking is in garage B, open from 6:00 to 22:00.",
};
const FRANCE: Source = Source {
    title: "France — Wikipedia",
    url: "https://en.wikipedia.org/wiki/France",
    extract: "Paris is the capital and largest city of France.",
};
const HAMLET: Source = Source {
    title: "Hamlet — Wikipedia",
    url: "https://en.wikipedia.org/wiki/Hamlet",
    extract: "Hamlet is a tragedy written by William Shakespeare between 1599 and 1601.",
};

const TOPICS: &[Topic] = &[
    Topic {
        keywords: &["vacation", "holiday", "time off", "days off", "pto", "annual leave"],
        parts: &[
            "New employees get 20 vacation days per year [1].",
            "Vacation days accrue monthly from your start date; request time off in the HR portal at least two weeks ahead [1].",
        ],
        follow_up: "After five years of service the allowance rises to 25 days per year [1].",
        sources: &[VACATION_POLICY],
        tool: None,
    },
    Topic {
        keywords: &["parental", "maternity", "paternity", "adoption", "baby"],
        parts: &[
            "Parents get 16 weeks of paid leave [1].",
            "It covers births, adoptions and foster placements, and can be taken within the child's first year [1].",
        ],
        follow_up: "You can split the 16 weeks into at most two blocks; tell your manager four weeks before each [1].",
        sources: &[PARENTAL_POLICY],
        tool: None,
    },
    Topic {
        keywords: &["payroll", "paycheck", "payslip", "pay portal", "salary"],
        parts: &["The code for the payroll portal is {tool} [1]."],
        follow_up: "Sign in with your employee number and that code; the payroll team resets it on request [1].",
        sources: &[PAYROLL_GUIDE],
        tool: Some(Tool {
            name: "lookup_portal_code",
            arguments: r#"{"portal":"payroll"}"#,
            output: "PAY-42",
        }),
    },
    Topic {
        keywords: &["travel", "flight", "fly", "trip", "expense", "receipt", "hotel"],
        parts: &[
            "Book economy class for flights under 6 hours [1].",
            "Receipts are required for expenses above $25 [2].",
        ],
        follow_up: "Flights of 6 hours or more may be booked in premium economy with your manager's approval [1].",
        sources: &[TRAVEL_POLICY, EXPENSE_POLICY],
        tool: None,
    },
    Topic {
        keywords: &["benefit", "insurance", "dental", "health plan", "pension"],
        parts: &["Use the BenefitsHub portal to enrol in and manage your benefits [1]."],
        follow_up: "Open enrolment in BenefitsHub runs every November [1].",
        sources: &[BENEFITS_GUIDE],
        tool: None,
    },
    Topic {
        keywords: &["bring", "first day", "start", "onboarding", "new starter"],
        parts: &[
            "Bring a photo ID and your signed offer letter [1].",
            "Your manager meets you at reception at 9:00 on your first day [1].",
        ],
        follow_up: "Your laptop and badge are handed out at reception on the first morning [1].",
        sources: &[ONBOARDING_CHECKLIST],
        tool: None,
    },
    Topic {
        keywords: &["park", "garage"],
        parts: &["Visitor parking is in garage B [1]."],
        follow_up: "Garage B is open from 6:00 to 22:00; show your badge at the gate [1].",
        sources: &[CAMPUS_GUIDE],
        tool: None,
    },
    Topic {
        keywords: &["capital", "france", "paris"],
        parts: &["Paris is the capital of France [1]."],
        follow_up: "Paris is also France's largest city [1].",
        sources: &[FRANCE],
        tool: None,
    },
    Topic {
        keywords: &["hamlet", "shakespeare"],
        parts: &["William Shakespeare wrote Hamlet [1]."],
        follow_up: "He wrote it between 1599 and 1601 [1].",
        sources: &[HAMLET],
        tool: None,
    },
    Topic {
        keywords: &["2+2", "2 + 2", "two plus two"],
        parts: &["4"],
        follow_up: "2 + 2 is 4, and 4 + 4 is 8.",
        sources: &[],
        tool: None,
    },
];

const FALLBACK: &str =
    "I couldn't find that in the knowledge sources I can search. I can help with \
vacation, parental leave, travel and expenses, benefits, payroll, your first day and parking.";

/// What the agent answers to one prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The topic answered (`None`: the fallback), for the conversation's memory.
    pub(crate) topic: Option<usize>,
    /// The paragraphs, with `[N]` citation markers.
    pub(crate) parts: Vec<String>,
    pub(crate) sources: Vec<Source>,
    /// The tool the answer needs; its output is already in `parts`.
    pub(crate) tool: Option<Tool>,
}

impl Answer {
    /// The paragraphs joined by blank lines, citation markers kept.
    pub(crate) fn text(&self) -> String {
        self.parts.join("\n\n")
    }

    /// The paragraphs joined by blank lines, without citation markers.
    pub(crate) fn plain_text(&self) -> String {
        self.parts
            .iter()
            .map(|part| without_markers(part))
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    /// The sources as `{"title", "url"}` objects.
    pub(crate) fn citations(&self) -> Vec<Value> {
        self.sources
            .iter()
            .map(|source| json!({"title": source.title, "url": source.url}))
            .collect()
    }
}

/// The answer to `prompt`, `previous` being the topic of the conversation's last answer: the
/// topic's answer, or its follow-up when the prompt is on the last topic again or on none.
pub(crate) fn answer(prompt: &str, previous: Option<usize>) -> Answer {
    let topic = topic_of(prompt);
    match (topic, previous) {
        (Some(index), Some(last)) if index != last => answer_topic(index, None),
        (Some(index), None) => answer_topic(index, None),
        (_, Some(index)) => match TOPICS.get(index) {
            Some(topic) => Answer {
                topic: Some(index),
                parts: vec![topic.follow_up.to_string()],
                sources: topic.sources.to_vec(),
                tool: None,
            },
            None => fallback(),
        },
        (None, None) => fallback(),
    }
}

/// The answer of topic `index`, its tool's output being `tool_output` (its own when `None`).
pub(crate) fn answer_topic(index: usize, tool_output: Option<&str>) -> Answer {
    let Some(topic) = TOPICS.get(index) else {
        return fallback();
    };
    let output = tool_output.or(topic.tool.map(|tool| tool.output));
    Answer {
        topic: Some(index),
        parts: topic
            .parts
            .iter()
            .map(|part| part.replace(TOOL_OUTPUT, output.unwrap_or_default()))
            .collect(),
        sources: topic.sources.to_vec(),
        tool: topic.tool,
    }
}

/// The topic whose keywords `prompt` matches most (the first on a tie), if any.
pub(crate) fn topic_of(prompt: &str) -> Option<usize> {
    let lower = prompt.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '+'))
        .filter(|word| !word.is_empty())
        .collect();
    let matches = |keyword: &str| {
        if keyword.contains(' ') || keyword.contains('+') {
            lower.contains(keyword)
        } else {
            words.iter().any(|word| word.starts_with(keyword))
        }
    };
    let mut best: Option<(usize, usize)> = None;
    for (index, topic) in TOPICS.iter().enumerate() {
        let hits = topic.keywords.iter().filter(|k| matches(k)).count();
        if hits > 0 && best.is_none_or(|(_, most)| hits > most) {
            best = Some((index, hits));
        }
    }
    best.map(|(index, _)| index)
}

fn fallback() -> Answer {
    Answer {
        topic: None,
        parts: vec![FALLBACK.to_string()],
        sources: Vec::new(),
        tool: None,
    }
}

/// `text` without its `[N]` citation markers (and the space before each).
pub(crate) fn without_markers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = rest.get(open + 1..).unwrap_or_default();
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let closed = digits > 0 && after.as_bytes().get(digits) == Some(&b']');
        let before = rest.get(..open).unwrap_or_default();
        if closed {
            out.push_str(before.strip_suffix(' ').unwrap_or(before));
            rest = after.get(digits + 1..).unwrap_or_default();
        } else {
            out.push_str(rest.get(..=open).unwrap_or_default());
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_examples_prompts_find_their_topics() {
        let cases = [
            (
                "How many vacation days do new employees get?",
                "20 vacation days",
            ),
            ("What is the parental leave policy?", "16 weeks"),
            ("What is the code for the payroll portal?", "PAY-42"),
            ("Summarize the travel policy.", "economy class"),
            ("Which benefits system do I use?", "BenefitsHub"),
            ("I start on Monday. What should I bring?", "photo ID"),
            ("Where do I park?", "garage B"),
            ("What is the capital of France?", "Paris"),
            ("Who wrote Hamlet?", "Shakespeare"),
            ("What is 2+2?", "4"),
        ];
        for (prompt, expected) in cases {
            let answer = answer(prompt, None);
            assert!(
                answer.text().contains(expected),
                "{prompt}: {}",
                answer.text()
            );
        }
    }

    #[test]
    fn follow_ups_continue_the_last_topic_and_the_rest_falls_back() {
        let first = answer("Where do I park?", None);
        let follow_up = answer("When is it open?", first.topic);
        assert!(follow_up.text().contains("6:00 to 22:00"));
        assert_eq!(follow_up.topic, first.topic);
        let again = answer("Is there parking for bikes?", first.topic);
        assert_eq!(again.text(), follow_up.text());
        let unknown = answer("When is it open?", None);
        assert_eq!(unknown.topic, None);
        assert!(unknown.sources.is_empty());
    }

    #[test]
    fn tool_outputs_fill_the_answer_and_markers_strip() {
        let payroll = topic_of("payroll portal code").unwrap_or_default();
        assert!(answer_topic(payroll, Some("XYZ-1"))
            .text()
            .contains("XYZ-1"));
        assert_eq!(
            without_markers("Economy [1]. Receipts [2]. Keep [x] [12"),
            "Economy. Receipts. Keep [x] [12"
        );
    }
}
