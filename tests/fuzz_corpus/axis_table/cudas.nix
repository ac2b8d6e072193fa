{
{#cuda}
  "{cuda_underscore@cuda}" = "{cuda_attr@cuda}";
{/cuda}
{#cuda 12.8}
x
{/cuda}
{#smart}
}
