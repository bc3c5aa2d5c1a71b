//! Talos runtime modes as validation sees them.

/// The runtime mode a config is validated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// A cloud platform: nothing mode-specific.
    Cloud,
    /// Talos in a container (`talosctl cluster create docker`): host DNS forwarding required.
    Container,
    /// Bare metal: `machine.install` required until installed.
    Metal,
    /// Metal agent mode: validated like cloud; a node refuses the API.
    MetalAgent,
}

impl Mode {
    /// Talos's `ParseMode`: exact and case-sensitive.
    ///
    /// ```
    /// use talos_config::Mode;
    /// assert_eq!(Mode::parse("container"), Ok(Mode::Container));
    /// assert_eq!(Mode::parse("Metal"), Err("unknown runtime mode: \"Metal\"".to_string()));
    /// ```
    pub fn parse(text: &str) -> Result<Mode, String> {
        match text {
            "cloud" => Ok(Mode::Cloud),
            "container" => Ok(Mode::Container),
            "metal" => Ok(Mode::Metal),
            "metal-agent" => Ok(Mode::MetalAgent),
            other => Err(format!("unknown runtime mode: {}", crate::gofmt::quote(other))),
        }
    }

    /// The mode's name as Talos prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Cloud => "cloud",
            Mode::Container => "container",
            Mode::Metal => "metal",
            Mode::MetalAgent => "metal-agent",
        }
    }

    /// `metal` requires `machine.install` (unless the node is installed already).
    pub fn requires_install(self) -> bool {
        self == Mode::Metal
    }

    /// `container` requires host DNS forwarding.
    pub fn in_container(self) -> bool {
        self == Mode::Container
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
