# Releases, keyed "release-python"; a release built against a later torch too
# is keyed "release-tag-python" ("pt212": torch 2.12).
{
  # -- Audio 2.10.x (torch 2.10.x) --
  "2.10-313" = {
    version = "2.10.0";
    torch = "2.10.0";
    gpuPin = "0182a361324364ae3f436a63005877674cf45efb";
    cudaPins = {
      "13_0" = "6a030d535719c5190187c4cec156f335e95e3211";
    };
    cpuPin = "6a030d535719c5190187c4cec156f335e95e3211";
    src = {
      owner = "pytorch";
      repo = "audio";
      rev = "v2.10.0";
      hash = "sha256-b1sjHVFXdNFDbdtXWSM2KisSRE/8IbzJI4rvzYQ4UMg=";
    };
  };

  # -- Audio 2.11.x (torch 2.11.x) --
  "2.11-313" = {
    version = "2.11.0";
    torch = "2.11.0";
    gpuPin = "0182a361324364ae3f436a63005877674cf45efb";
    cudaPins = {
      "13_0" = "6a030d535719c5190187c4cec156f335e95e3211";
    };
    cpuPin = "6a030d535719c5190187c4cec156f335e95e3211";
    src = {
      owner = "pytorch";
      repo = "audio";
      rev = "v2.11.0";
      hash = "sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0=";
    };
  };

  # -- Audio 2.11.x, built against torch 2.12.x too (2.11 loads on later torch) --
  "2.11-pt212-313" = {
    version = "2.11.0";
    torch = "2.12.1";
    gpuPin = "0182a361324364ae3f436a63005877674cf45efb";
    cudaPins = {
      "13_0" = "6a030d535719c5190187c4cec156f335e95e3211";
    };
    cpuPin = "6a030d535719c5190187c4cec156f335e95e3211";
    src = {
      owner = "pytorch";
      repo = "audio";
      rev = "v2.11.0";
      hash = "sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0=";
    };
  };
}
