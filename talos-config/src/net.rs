//! CIDR prefixes as Go's `net/netip` parses them, and overlap checks (an addition to Talos,
//! which never checks pod/service subnet overlap). (Placeholder; lands with the validation work.)
