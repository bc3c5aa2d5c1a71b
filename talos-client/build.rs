//! Compiles `../proto` with protox (no system `protoc`) and generates client and server code.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos = ["../proto/common.proto"];
    for p in protos {
        println!("cargo:rerun-if-changed={p}");
    }
    let descriptors = protox::compile(protos, ["../proto"])?;
    tonic_prost_build::configure().build_server(true).build_client(true).compile_fds(descriptors)?;
    Ok(())
}
