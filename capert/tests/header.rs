//! The committed C header `include/capert.h` must be what cbindgen generates from the
//! current source ("CI checks drift"). `CAPERT_BLESS=1` rewrites it.

use std::path::Path;

#[test]
fn header_is_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))
        .expect("capert/cbindgen.toml must parse");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen must understand capert's C ABI");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = dir.join("include/capert.h");
    if std::env::var_os("CAPERT_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("cannot write include/capert.h");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "capert/include/capert.h is out of date with capert/src/ffi: run `CAPERT_BLESS=1 cargo test -p capert --test header` and commit it"
    );
}
