//! `labctl-lab`: every labctl subcommand, the lab and the simulated cluster included. `labctl`
//! runs it for `lab`, `sim` and help (see the `labctl` library).

fn main() -> std::process::ExitCode {
    labctl::full()
}
