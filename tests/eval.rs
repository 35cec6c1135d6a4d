//! Scoring as the paper did: each case's expected values are what HotpotQA's official
//! `normalize_answer` / `exact_match_score` / `f1_score` return for it (run in Python 3), and
//! the paper's sample is the one its notebooks draw.

use tao_agent::error::ErrorKind;
use tao_agent::eval::{
    exact_match, f1, fever_correct, fever_label, normalize_answer, paper, paper_sample, score,
    vote, Computed, Dataset, Score, Vote,
};
use tao_agent::json;
use tao_agent::to_json::to_string;

/// (prediction, gold, normalised prediction, exact match, F1), from the official code.
#[rustfmt::skip]
const HOTPOT: &[(&str, &str, &str, bool, f64)] = &[
    // Articles go as whole words, punctuation as characters.
    ("The Beatles", "Beatles", "beatles", true, 1.0),
    ("U.S.", "US", "us", true, 1.0),
    ("Theatre of an apple", "theatre apple", "theatre of apple", false, 0.8),
    ("an_a", "ana", "ana", true, 1.0),
    // Numbers lose their separators and decimal points alike.
    ("1,000", "1000", "1000", true, 1.0),
    ("3.14", "314", "314", true, 1.0),
    // White space of any kind is one space.
    ("  New\tYork \n City ", "new york city", "new york city", true, 1.0),
    // Yes/no questions are all or nothing, also against a longer answer.
    ("yes", "no", "yes", false, 0.0),
    ("yes", "yes it is", "yes", false, 0.0),
    ("Yes.", "yes", "yes", true, 1.0),
    ("noanswer", "no answer", "noanswer", false, 0.0),
    // Tokens count with their multiplicity.
    ("Barack Obama Barack", "Barack Obama", "barack obama barack", false, 0.8),
    ("the cat sat on the mat", "cat cat mat", "cat sat on mat", false, 4.0 / 7.0),
    ("Seth MacFarlane", "MacFarlane", "seth macfarlane", false, 2.0 / 3.0),
    // Empty answers are equal, but share no token: EM 1, F1 0.
    ("", "", "", true, 0.0),
    ("the a an", "", "", true, 0.0),
    ("", "Paris", "", false, 0.0),
    // Chinese has no spaces: a whole answer is one token, and a part of it scores nothing.
    ("北京", "北京", "北京", true, 1.0),
    ("北京大学", "北京", "北京大学", false, 0.0),
    // Unicode punctuation stays, and an article next to it is still a word.
    ("«the» end", "« » end", "« » end", true, 1.0),
    ("Ünited States", "ünited states", "ünited states", true, 1.0),
];

#[test]
fn hotpotqa_scores_as_the_official_code() {
    for &(prediction, gold, normalised, em, want_f1) in HOTPOT {
        assert_eq!(normalize_answer(prediction), normalised, "{prediction:?}");
        assert_eq!(
            exact_match(prediction, gold),
            em,
            "{prediction:?} vs {gold:?}"
        );
        let got = f1(prediction, gold);
        assert!(
            (got - want_f1).abs() < 1e-12,
            "F1 of {prediction:?} vs {gold:?}: {got}, want {want_f1}"
        );
        let s = score(Dataset::HotpotQa, Some(prediction), gold);
        assert_eq!(s.em, f64::from(u8::from(em)), "{prediction:?}");
        assert!((s.f1 - want_f1).abs() < 1e-12, "{prediction:?}");
    }
}

#[test]
fn no_answer_scores_nothing() {
    let zero = Score { em: 0.0, f1: 0.0 };
    assert_eq!(score(Dataset::HotpotQa, None, ""), zero);
    assert_eq!(score(Dataset::Fever, None, "SUPPORTS"), zero);
}

#[test]
fn fever_answers_name_their_label() {
    for (answer, label) in [
        ("SUPPORTS", Some("SUPPORTS")),
        ("Finish[SUPPORTS]", Some("SUPPORTS")),
        ("finish[refutes]", Some("REFUTES")),
        (" Supported. ", Some("SUPPORTS")),
        ("\"REFUTES\"", Some("REFUTES")),
        ("NOT ENOUGH INFO", Some("NOT ENOUGH INFO")),
        ("Not enough information", Some("NOT ENOUGH INFO")),
        ("Finish[NOT ENOUGH INFO]", Some("NOT ENOUGH INFO")),
        ("NEI", Some("NOT ENOUGH INFO")),
        ("The claim is supported by the page", None),
        ("Finish[", None),
        ("", None),
    ] {
        assert_eq!(fever_label(answer), label, "{answer:?}");
    }
    assert!(fever_correct("Finish[SUPPORTS]", "SUPPORTS"));
    assert!(fever_correct("not enough information", "NOT ENOUGH INFO"));
    assert!(fever_correct("refutes", "REFUTES"));
    assert!(!fever_correct("SUPPORTS", "REFUTES"));
    assert!(!fever_correct("", "REFUTES"));
    let right = score(Dataset::Fever, Some("Finish[REFUTES]"), "REFUTES");
    assert_eq!(right, Score { em: 1.0, f1: 1.0 });
    let wrong = score(Dataset::Fever, Some("SUPPORTS"), "NOT ENOUGH INFO");
    assert_eq!(wrong, Score { em: 0.0, f1: 0.0 });
    assert_eq!(Dataset::from_name("HotpotQA"), Some(Dataset::HotpotQa));
    assert_eq!(Dataset::from_name("fever"), Some(Dataset::Fever));
    assert_eq!(Dataset::from_name("squad"), None);
}

#[test]
fn the_vote_is_the_normalised_majority() {
    // "The Beatles" and "beatles." are one answer; the first spelling is kept.
    let v = vote(&["The Beatles", "Queen", "beatles.", "Queen ", "Beatles"]).unwrap();
    assert_eq!(
        v,
        Vote {
            answer: "The Beatles".into(),
            count: 3,
            of: 5
        }
    );
    assert!(!v.is_weak(0.5));
    // A tie goes to the answer given first.
    let tie = vote(&["Paris", "Lyon", "lyon", "paris"]).unwrap();
    assert_eq!((tie.answer.as_str(), tie.count, tie.of), ("Paris", 2, 4));
    assert!(!tie.is_weak(0.5), "2 of 4 is n/2, not less");
    // Less than n/2: the paper backs off to ReAct.
    let weak = vote(&["1990", "1991", "1990", "1992", "1993"]).unwrap();
    assert_eq!((weak.answer.as_str(), weak.count, weak.of), ("1990", 2, 5));
    assert!(weak.is_weak(0.5));
    // Samples without an answer count in `of` but cannot win.
    let sparse = vote(&["", "Ulm", "  ", "the"]).unwrap();
    assert_eq!(
        (sparse.answer.as_str(), sparse.count, sparse.of),
        ("Ulm", 1, 4)
    );
    assert!(sparse.is_weak(0.5));
    assert_eq!(vote(&["", "a"]), None);
    assert_eq!(vote(&[]), None);
}

#[test]
fn the_paper_sample_is_the_papers() {
    // The first ten and the 500th `idx` of the paper's HotpotQA and FEVER samples.
    let hotpot = paper_sample(7405, 233, 500);
    assert_eq!(hotpot.len(), 500);
    assert_eq!(
        hotpot[..10],
        [3687, 6238, 5388, 3522, 3824, 2866, 1551, 2544, 1557, 5762]
    );
    assert_eq!(hotpot[499], 4082);
    let fever = paper_sample(9999, 233, 500);
    assert_eq!(
        fever[..10],
        [8359, 4383, 2153, 6676, 4160, 7792, 8298, 657, 58, 6781]
    );
    assert_eq!(fever[499], 1005);
    // Python's `x = list(range(10)); random.Random(1).shuffle(x)`.
    assert_eq!(paper_sample(10, 1, 10), [6, 8, 9, 7, 5, 3, 0, 4, 1, 2]);
    // A sample is a permutation's prefix: no index twice, none out of range.
    let mut all = paper_sample(7405, 233, 7405);
    all.sort_unstable();
    assert!(all.iter().enumerate().all(|(i, &x)| i == x));
    assert_eq!(paper_sample(3, 233, 10).len(), 3);
    assert!(paper_sample(0, 233, 5).is_empty());
}

/// The functions as JavaScript calls them (`scoreAnswer`, `vote`, `paperSample`, computed by
/// `paper` in the built-in tools' module): arguments as a JSON list, results as JSON.
#[test]
fn the_papers_functions_take_and_give_json_as_javascript_calls_them() {
    let call = |name: &str, args: &str| {
        let args = tao_agent::json::from_str(args).unwrap();
        paper(name, &args).map(|computed| to_string(&computed))
    };
    let score = |args: &str| call("scoreAnswer", args).unwrap();
    assert_eq!(
        score(r#"["hotpotqa", "Seth MacFarlane", "MacFarlane"]"#),
        format!(r#"{{"em":0.0,"f1":{}}}"#, 2.0 / 3.0)
    );
    assert_eq!(
        score(r#"["FEVER", "Finish[REFUTES]", "REFUTES"]"#),
        r#"{"em":1.0,"f1":1.0}"#
    );
    // No prediction (null, or not a string) scores nothing.
    for args in [r#"["hotpotqa", null, "Paris"]"#, r#"["hotpotqa", 7, "7"]"#] {
        assert_eq!(score(args), r#"{"em":0.0,"f1":0.0}"#, "{args}");
    }
    for args in [r#"["squad", "a", "a"]"#, "[]"] {
        let e = call("scoreAnswer", args).unwrap_err();
        let dataset = if args == "[]" { "" } else { "squad" };
        assert_eq!(
            (e.kind, e.message),
            (
                ErrorKind::Config,
                format!(r#"unknown dataset "{dataset}"; use "hotpotqa" or "fever""#)
            )
        );
    }
    // A sample that is not a string is one without an answer.
    assert_eq!(
        call("vote", r#"[["Paris", null, "paris.", 3]]"#),
        Ok(r#"{"answer":"Paris","count":2,"of":4}"#.to_string())
    );
    assert_eq!(call("vote", r#"[[null, ""]]"#), Ok("null".to_string()));
    assert_eq!(call("vote", "[]"), Ok("null".to_string()));
    assert_eq!(
        call("paperSample", "[7405, 3]"),
        Ok("[3687,6238,5388]".to_string())
    );
    // Numbers that are not counts are 0.
    assert_eq!(call("paperSample", r#"[7405, "3"]"#), Ok("[]".to_string()));
    assert_eq!(call("paperSample", "[-5, 2]"), Ok("[]".to_string()));
    assert_eq!(
        paper("paperSample", &json!([10, 10])),
        Ok(Computed::Sample(paper_sample(10, 233, 10)))
    );
}
