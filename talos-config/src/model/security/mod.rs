//! Document kinds of upstream `pkg/machinery/config/types/security`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;

/// `ImageVerificationConfig` (unnamed): image signature verification rules.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "security.ImageVerificationConfigV1Alpha1")]
pub struct ImageVerificationConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Rules matched in order against each image pulled.
    #[talos(key = "rules", omitempty, go_name = "ConfigRules")]
    pub rules: ImageVerificationRules,
}

crate::document::unnamed_kind!(ImageVerificationConfig => "ImageVerificationConfig" since V1_13_9);

/// One verification rule.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "security.ImageVerificationRuleV1Alpha1")]
pub struct ImageVerificationRule {
    /// The image reference pattern the rule applies to.
    #[talos(key = "image", omitempty, go_name = "RuleImagePattern")]
    pub image: String,
    /// Verifies keyless (Sigstore) signatures.
    #[talos(key = "keyless", omitempty, go_name = "RuleKeylessVerifier")]
    pub keyless: Option<ImageKeylessVerifier>,
    /// Verifies signatures made with a given public key.
    #[talos(key = "publicKey", omitempty, go_name = "RulePublicKeyVerifier")]
    pub public_key: Option<ImagePublicKeyVerifier>,
    /// Pulls matching images without verification.
    #[talos(key = "skip", omitempty, go_name = "RuleSkip")]
    pub skip: Option<bool>,
    /// Refuses matching images.
    #[talos(key = "deny", omitempty, go_name = "RuleDeny")]
    pub deny: Option<bool>,
}

/// Cosign keyless verification.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "security.ImageKeylessVerifierV1Alpha1")]
pub struct ImageKeylessVerifier {
    /// The OIDC issuer the signing identity must come from.
    #[talos(key = "issuer", omitempty, go_name = "KeylessIssuer")]
    pub issuer: String,
    /// The exact signing identity.
    #[talos(key = "subject", omitempty, go_name = "KeylessSubject")]
    pub subject: String,
    /// A regular expression the signing identity must match.
    #[talos(key = "subjectRegex", omitempty, go_name = "KeylessSubjectRegex")]
    pub subject_regex: String,
}

/// Static public key verification.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "security.ImagePublicKeyVerifierV1Alpha1")]
pub struct ImagePublicKeyVerifier {
    /// The PEM public key or certificate signatures are checked with.
    #[talos(key = "certificate", omitempty, go_name = "ConfigCertificate")]
    pub certificate: String,
}

/// `security.ImageVerificationRules`: a slice with a custom `Merge` keyed by `image`. A patch
/// rule whose pattern exists on the left replaces that rule entirely; others are appended. The
/// index is built from the left side before the merge, so two new rules with the same pattern
/// are both appended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImageVerificationRules(pub Vec<ImageVerificationRule>);

crate::value::go_slice_type!(
    ImageVerificationRules,
    ImageVerificationRule,
    "security.ImageVerificationRules",
    merge = merge_rules
);

/// A patch rule whose pattern is on the left replaces that rule; others are appended.
fn merge_rules(
    left: &mut Vec<ImageVerificationRule>,
    right: &[ImageVerificationRule],
    _flags: crate::value::MergeFlags,
) -> Result<(), String> {
    // Go map semantics: a later left rule with the same pattern wins the index slot.
    let mut index: Vec<(String, usize)> = Vec::new();
    for (i, rule) in left.iter().enumerate() {
        match index.iter_mut().find(|(p, _)| *p == rule.image) {
            Some(slot) => slot.1 = i,
            None => index.push((rule.image.clone(), i)),
        }
    }
    for rule in right {
        match index.iter().find(|(p, _)| *p == rule.image).map(|(_, i)| *i) {
            Some(i) => {
                if let Some(slot) = left.get_mut(i) {
                    *slot = rule.clone();
                }
            }
            None => left.push(rule.clone()),
        }
    }
    Ok(())
}

/// `TrustedRootsConfig` (named): extra trusted CA certificates.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "security.TrustedRootsConfigV1Alpha1")]
pub struct TrustedRootsConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The bundle's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// PEM certificates added to the node's trusted roots.
    #[talos(key = "certificates", go_name = "Certificates")]
    pub certificates: String,
}

crate::document::named_kind!(TrustedRootsConfig => "TrustedRootsConfig");

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<ImageVerificationConfig>(), entry::<TrustedRootsConfig>()];
