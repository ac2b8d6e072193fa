# Per toolkit: the oldest driver it runs on.
{
  "12_8" = {
    driver = "570";
  };
  "13_0" = {
    driver = "580";
  };
}
