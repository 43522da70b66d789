/* C99 digraphs (gcc accepts them): <: :> <% %> %: %:%: */
%:include <stdio.h>
%:define CAT(a, b) a %:%: b
%:define STR(x) %:x

#define N 100
double CAT(val, ues)<:N:>;
int table<:3:> = <%1, 2, 3%>;

int main(void)
<%
    double sum = 0;
#pragma omp parallel for reduction(+: sum)
    for (int i = 0; i < N; i++) <%
        values<:i:> = i * 0.5 + table<:i % 3:>;
        sum += values<:i:>;
    %>
    printf("%s %.1f %.1f\n", STR(<:%>), sum, values<:N - 1:>);
    return 0;
%>
