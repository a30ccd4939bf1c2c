// The guest's wasm module: a stack of its own large enough for boa at the
// guard's limits (bracket nesting, call depth), and a ceiling on its memory,
// so that a policy's heap can never take the page's tab with it.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size={}", 32 << 20);
        println!("cargo:rustc-link-arg-cdylib=--max-memory={}", 1u64 << 30);
    }
}
