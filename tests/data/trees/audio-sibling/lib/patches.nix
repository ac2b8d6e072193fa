# The release's own source and torch, swapped into the Python set.
{ row, torch }:
{
  overlays = [
    (self: super: {
      python3Packages = super.python3Packages.override {
        overrides = pself: psuper: {
          inherit torch;
          torchaudio = psuper.torchaudio.overrideAttrs (a: {
            version = row.audio;
            src = super.fetchFromGitHub { inherit (row.tag) owner repo rev hash; };
          });
        };
      };
    })
  ];
}
