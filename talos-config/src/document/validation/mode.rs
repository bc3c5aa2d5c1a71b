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

impl std::str::FromStr for Mode {
    type Err = crate::Error;

    /// Talos's `ParseMode`: exact and case-sensitive; the error is Talos's text.
    ///
    /// ```
    /// use talos_config::Mode;
    /// assert_eq!("container".parse::<Mode>(), Ok(Mode::Container));
    /// assert_eq!("Metal".parse::<Mode>().unwrap_err().to_string(), "unknown runtime mode: \"Metal\"");
    /// ```
    fn from_str(text: &str) -> Result<Mode, crate::Error> {
        match text {
            "cloud" => Ok(Mode::Cloud),
            "container" => Ok(Mode::Container),
            "metal" => Ok(Mode::Metal),
            "metal-agent" => Ok(Mode::MetalAgent),
            other => Err(crate::Error::invalid_value(format!("unknown runtime mode: {}", crate::gofmt::quote(other)))),
        }
    }
}

impl Mode {
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
    pub(crate) fn requires_install(self) -> bool {
        self == Mode::Metal
    }

    /// `container` requires host DNS forwarding.
    pub(crate) fn in_container(self) -> bool {
        self == Mode::Container
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
