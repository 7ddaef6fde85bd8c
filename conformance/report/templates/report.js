/* The report's filters: by category, operator, data type, run and case id, over every element of class f
   (failures, flaky cases, rows of the all-cases table).  Inlined by report.html.j2: the page needs no network. */
function applyFilters(){
  var cat=document.getElementById('f-cat').value, op=document.getElementById('f-op').value,
      dt=document.getElementById('f-dt').value, run=document.getElementById('f-run').value,
      text=document.getElementById('f-text').value.toLowerCase(), shown=0;
  document.querySelectorAll('.f').forEach(function(el){
    var ok=(!cat||el.dataset.cat===cat)&&(!op||el.dataset.op===op)&&(!dt||el.dataset.dt===dt)
      &&(!run||el.dataset.run===run)&&(!text||el.dataset.id.toLowerCase().indexOf(text)>=0);
    el.style.display=ok?'':'none'; if(ok&&el.tagName==='TR')shown++;
  });
  document.getElementById('f-count').textContent=shown+' case rows shown';
}
document.addEventListener('DOMContentLoaded',function(){
  ['f-cat','f-op','f-dt','f-run','f-text'].forEach(function(id){
    var el=document.getElementById(id); el.addEventListener('input',applyFilters); el.addEventListener('change',applyFilters);});
  applyFilters();
});
