fn main() {
    std::process::exit(capecc::driver::main());
}
