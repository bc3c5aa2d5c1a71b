//! Compiles `../proto` with protox (no system `protoc`) and generates client and server code.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos = [
        "../proto/google/rpc/status.proto",
        "../proto/common.proto",
        "../proto/machine/machine.proto",
        "../proto/cosi/resource.proto",
        "../proto/cosi/state.proto",
        "../proto/cosi/meta.proto",
        "../proto/resource/config/config.proto",
        "../proto/talos/resource/definitions/enums.proto",
        "../proto/talos/resource/definitions/cluster.proto",
        "../proto/talos/resource/definitions/v1alpha1.proto",
    ];
    println!("cargo:rerun-if-changed=../proto");
    for p in protos {
        println!("cargo:rerun-if-changed={p}");
    }
    let descriptors = protox::compile(protos, ["../proto"])?;
    tonic_prost_build::configure().build_server(true).build_client(true).compile_fds(descriptors)?;
    Ok(())
}
