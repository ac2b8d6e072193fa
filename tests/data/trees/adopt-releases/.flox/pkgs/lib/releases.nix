# Releases, keyed "release-python": the version, the torch it pairs with, pins.
{
  # -- Vision 0.25.x (torch 2.10.x) --
  # (the first release we built)
  "0.25-313" = {
    version = "0.25.0";
    torch = "2.10.0";
    gpuPin = "0182a361324364ae3f436a63005877674cf45efb";
    cudaPins = {
      "13_0" = "6a030d535719c5190187c4cec156f335e95e3211";
    };
    cpuPin = "6a030d535719c5190187c4cec156f335e95e3211";
    src = {
      owner = "pytorch";
      repo = "vision";
      rev = "v0.25.0";
      hash = "sha256-oktJHcT6T4f58pUO+HSBpbyS1ISH3zDlTsXQh6PcMy4=";
    };
  };

  # -- Vision 0.26.x (torch 2.11.x) --
  "0.26-313" = {
    version = "0.26.0";
    torch = "2.11.0";
    gpuPin = "0182a361324364ae3f436a63005877674cf45efb";
    cudaPins = {
      "13_0" = "6a030d535719c5190187c4cec156f335e95e3211";
    };
    cpuPin = "6a030d535719c5190187c4cec156f335e95e3211";
    src = {
      owner = "pytorch";
      repo = "vision";
      rev = "v0.26.0";
      hash = "sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=";
    };
  };
}
