{
{#sm}
  "{sm_nodot@sm}" = { n = "{gpu_names@sm x86_64}"; };
{/sm}
{#sm 6.1}
  "61" = { };
{/sm}
}
