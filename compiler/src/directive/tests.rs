use super::*;

#[test]
#[ignore]
fn dump_clause_table() {
    for d in DirectiveKind::ALL {
        for c in ClauseKind::ALL {
            println!("TABLE {}|{}|{}", d.name(), c.name(), clause_allowed(d, c));
        }
    }
}
