-------------------------------- MODULE HTML ---------------------------------
(* specula's text of the community module HTML: strings of HTML, CSS and     *)
(* JavaScript for animations.  Placeholders such as %id% are filled by        *)
(* replacing their first occurrence.                                          *)
LOCAL INSTANCE Sequences
LOCAL INSTANCE SequencesExt

\* string with each <<placeholder, value>> of args replaced, in order
HTMLFill(string, args) == FoldLeft(LAMBDA str, a : ReplaceFirstSubSeq(a[2], a[1], str), string, args)

\* the non-empty strings joined by separator
LOCAL Join(strs, separator) ==
  FoldLeft(LAMBDA acc, s : IF acc = "" THEN s ELSE acc \o separator \o s, "", strs)

LOCAL Lines(strs) == Join(strs, "\n")

HTMLDocument(header, body, list_of_scripts) ==
  Lines(<<"<!DOCTYPE html>", "<html>", header, body, Lines(list_of_scripts), "</html>">>)

HTMLClass(classname, attribute_list) ==
  Lines(<<classname \o " {", Lines(attribute_list), "}">>)

HTMLAttribute(name, value) == name \o ": " \o value \o ";"

HTMLDefaultStyle ==
  Lines(<<HTMLClass(".default_grid", <<HTMLAttribute("display", "grid")>>),
          HTMLClass(".default_box", <<HTMLAttribute("border", "1px solid black")>>),
          HTMLClass(".default_circle", <<HTMLAttribute("border-radius", "50%")>>)>>)

HTMLStyleSheet(class_list) ==
  Lines(<<"<style type=\"text/css\">", HTMLDefaultStyle, Lines(class_list), "</style>">>)

HTMLScriptFile(name) == "<script src=\"" \o name \o "\"></script>"

HTMLScript(children) == Lines(<<"<script>", Lines(children), "</script>">>)

HTMLLink(name, type) == "<link href=\"" \o name \o "\" rel=\"" \o type \o "\"/>"

HTMLHeader(title, list_of_links, class_list) ==
  Lines(<<"<head>", "<meta charset=\"UTF-8\">", "<title>" \o title \o "</title>",
          Lines(list_of_links), HTMLStyleSheet(class_list), "</head>">>)

HTMLBody(body) == Lines(<<"<body>", body, "</body>">>)

HTMLFrame(id, children) == Lines(<<"<div id=\"" \o id \o "\">", Lines(children), "</div>">>)

HTMLGridContainer(id, class_list, children) ==
  Lines(<<"<div id=\"" \o id \o "\" class=\"default_grid " \o Join(class_list, " ") \o "\">",
          Lines(children), "</div>">>)

HTMLBox(id, class_list, size, children) ==
  Lines(<<"<div id=\"" \o id \o "\" class=\"default_box " \o Join(class_list, " ")
            \o "\" style=\"" \o size \o "\">",
          Lines(children), "</div>">>)

HTMLCircle(id, class_list, size, children) ==
  HTMLBox(id, <<"default_circle">> \o class_list, size, children)

HTMLText(id, text) == Lines(<<"<span id=\"" \o id \o "\">", text, "</span>">>)

HTMLSVG(id, viewBox, size, svgString) ==
  Lines(<<"<svg id=\"" \o id \o "\" viewBox=\"" \o viewBox \o "\" style=\"" \o size \o "\">",
          svgString, "</svg>">>)

HTMLSize(width, height) == Join(<<HTMLAttribute("width", width), HTMLAttribute("height", height)>>, " ")

HTMLNewLine == "<br>"

HTMLFlexCenterAttributes ==
  Lines(<<HTMLAttribute("display", "flex"), HTMLAttribute("align-items", "center"),
          HTMLAttribute("justify-content", "center")>>)

HTMLJSLineElems(fromID, destID) ==
  "document.getElementById(\"" \o fromID \o "\"), document.getElementById(\"" \o destID \o "\")"

HTMLJSLine(fromID, destID, color, size) ==
  "new LeaderLine(" \o HTMLJSLineElems(fromID, destID) \o ", {color: '" \o color \o "', size: " \o size \o "})"

HTMLJSLineDash(fromID, destID, color, size) ==
  "new LeaderLine(" \o HTMLJSLineElems(fromID, destID) \o ",  {color: '" \o color \o "', size: "
    \o size \o ", dash: true})"

HTMLJSKeyListener(events) ==
  Lines(<<"window.onkeyup = function(event) {", "let key = event.key.toUpperCase();", Lines(events), "}">>)

HTMLJSNavigationKey(key, file) ==
  Lines(<<"if(key == '" \o key \o "'){", "window.location.replace(\"" \o file \o "\");", "}">>)
=============================================================================
