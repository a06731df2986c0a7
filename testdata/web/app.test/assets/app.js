// Turplan: the app shell's script. It fills #root; without it the page is empty.
const root = document.getElementById("root");
root.innerHTML = "<h1>Turplan</h1><p>Planlegg turen, del ruten og sjekk været underveis.</p>";
