//! `labctl`: the Talos lab CLI. It runs merge, validate, lint, plan, diff, lsp, schema and gen
//! itself, and hands `lab`, `sim` and help to `labctl-lab` (see the `labctl` library).

fn main() -> std::process::ExitCode {
    labctl::front()
}
