//! cel-go's parse errors, as Talos v1.13.9's reference program printed them.

use super::parse_errors;

#[test]
fn a_valid_expression_has_no_errors() {
    assert_eq!(parse_errors("disk.transport == \"nvme\" && !system_disk"), None);
}
