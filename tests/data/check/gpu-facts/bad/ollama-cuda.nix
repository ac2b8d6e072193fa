# Ollama for the GPUs of this fleet
{ ollama-cuda }:
ollama-cuda.override {
  acceleration = "cuda";
  cudaArches = [
    "sm_80"   # Ampere - A100
    "sm_86"   # Ampere - RTX 40xx
    "sm_120"  # Blackwell consumer - RTX 5090
  ];
}
