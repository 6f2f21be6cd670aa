//! `evaluators()`: the built-in evaluator catalog with options, defaults and pass rules.

use agenteval_core::evaluators::{self, EvaluatorSpec};
use agenteval_core::json::Value;
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::types::{EvaluatorInfo, OptionInfo};

/// Lists every built-in evaluator: name, kind, inputs, options with their defaults, pass rule.
#[wasm_bindgen(js_name = evaluators, unchecked_return_type = "EvaluatorInfo[]")]
pub fn list_evaluators() -> Result<JsValue, JsValue> {
    boundary::to_js(&catalog())
}

/// The catalog as boundary objects.
pub fn catalog() -> Vec<EvaluatorInfo> {
    evaluators::catalog().map(info).collect()
}

fn info(spec: &EvaluatorSpec) -> EvaluatorInfo {
    EvaluatorInfo {
        name: spec.name.to_owned(),
        kind: spec.kind,
        inputs: spec
            .inputs
            .iter()
            .map(|input| (*input).to_owned())
            .collect(),
        options: spec
            .options
            .iter()
            .map(|option| {
                let required = option.default == "required";
                OptionInfo {
                    name: option.name.to_owned(),
                    kind: option.kind.to_owned(),
                    required,
                    default: if required {
                        Value::Null
                    } else {
                        serde_json::from_str(option.default)
                            .unwrap_or_else(|_| Value::from(option.default))
                    },
                    description: option.description.to_owned(),
                }
            })
            .collect(),
        pass_rule: spec.pass_rule.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_core::evaluators::EvaluatorKind;

    #[test]
    fn defaults_are_json_values_and_required_options_are_flagged() {
        let catalog = catalog();
        assert_eq!(catalog.len(), evaluators::catalog().count());
        let rubric = catalog
            .iter()
            .find(|info| info.name == "Rubric")
            .expect("Rubric is built in");
        let dimensions = &rubric.options[0];
        assert!(dimensions.required);
        assert_eq!(dimensions.default, Value::Null);
        let threshold = &rubric.options[1];
        assert_eq!(threshold.default, agenteval_core::json!(0.5));
        assert_eq!(rubric.kind, EvaluatorKind::Judge);
    }
}
