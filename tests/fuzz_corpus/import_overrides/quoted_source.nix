ps.torch.overrideAttrs (old: { version = "2.10.0"; src = fetchFromGitHub { owner = "a\"b\n[[x]]"; repo = "r'''\\"; rev = "v2.10.0"; hash = "sha256-${"#"}"; }; })
