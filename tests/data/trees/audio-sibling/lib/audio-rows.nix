# One row per (release, torch it links against). Audio releases follow torch's
# numbering, so a row states the same version twice; "2.11+pt212" links 2.11.0
# against the next torch.
{
  "2.11" = {
    audio = "2.11.0";
    links = "2.11.0";
    pin = "6a030d535719c5190187c4cec156f335e95e3211";
    tag = { owner = "pytorch"; repo = "audio"; rev = "v2.11.0"; hash = "sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0="; };
  };
  "2.11+pt212" = {
    audio = "2.11.0";
    links = "2.12.1";
    pin = "6a030d535719c5190187c4cec156f335e95e3211";
    tag = { owner = "pytorch"; repo = "audio"; rev = "v2.11.0"; hash = "sha256-TncROn9wfn5HOaIvupS2/KD9JCgwfHyfnbZRc+SiqJ0="; };
  };
}
