//! Prints the allowed-clause table, one `TABLE directive|clause|allowed` line per pair, for
//! comparing with the OpenMP 4.5 specification or another implementation:
//!
//!     cargo run -p capecc --example clause_table

use capecc::directive::{clause_allowed, ClauseKind, DirectiveKind};

fn main() {
    for d in DirectiveKind::ALL {
        for c in ClauseKind::ALL {
            println!("TABLE {}|{}|{}", d.name(), c.name(), clause_allowed(d, c));
        }
    }
}
