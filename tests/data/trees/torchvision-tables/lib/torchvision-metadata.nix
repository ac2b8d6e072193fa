# torchvision releases: the torch each pairs with (PyTorch's release table),
# the nixpkgs pins it builds on, and its source.
let
  pins = {
    unstable = "0182a361324364ae3f436a63005877674cf45efb";
    cuda13 = "6a030d535719c5190187c4cec156f335e95e3211";
    cuda131 = "2017d6d515f8a7b289fe06d3a880a7ec588c3900";
  };
in
{
  "0.25" = {
    version = "0.25.0";
    torchVersion = "2.10.0";
    nixpkgsPin = pins.unstable;
    cudaPinOverrides = { "13_0" = pins.cuda13; "13_1" = pins.cuda131; };
    cpuPin = pins.cuda13;
    sourceOverride = {
      owner = "pytorch";
      repo = "vision";
      rev = "v0.25.0";
      hash = "sha256-oktJHcT6T4f58pUO+HSBpbyS1ISH3zDlTsXQh6PcMy4=";
    };
  };
  "0.26" = {
    version = "0.26.0";
    torchVersion = "2.11.0";
    nixpkgsPin = pins.unstable;
    cudaPinOverrides = { "13_0" = pins.cuda13; "13_1" = pins.cuda131; };
    cpuPin = pins.cuda13;
    sourceOverride = {
      owner = "pytorch";
      repo = "vision";
      rev = "v0.26.0";
      hash = "sha256-FOdDGY3v8yWBhtNo9tZP79/xwrc7AoIY5Y1ZABzWe6g=";
    };
  };
  "0.27" = {
    version = "0.27.1";
    torchVersion = "2.12.0";
    nixpkgsPin = pins.unstable;
    cudaPinOverrides = { "13_0" = pins.cuda13; "13_1" = pins.cuda131; };
    cpuPin = pins.cuda13;
    sourceOverride = {
      owner = "pytorch";
      repo = "vision";
      rev = "v0.27.1";
      hash = "sha256-XFbFC77UHC9WVhZepEK+7JpWbTpTrGizx8NMcRlwX74=";
    };
  };
}
