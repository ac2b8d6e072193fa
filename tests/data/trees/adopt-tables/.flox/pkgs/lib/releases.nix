# Releases: the version each builds, the torch release it pairs with, pins.
{
  "0.26" = {
    version = "0.26.0";
    torch = "2.11.0";
    gpuPin = "6a030d535719c5190187c4cec156f335e95e3211";
    cpuPin = "6a030d535719c5190187c4cec156f335e95e3211";
    src = {
      owner = "pytorch";
      repo = "vision";
      rev = "v0.26.0";
      hash = "sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=";
    };
  };
}
